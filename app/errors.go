package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// AWP error codes (AWP-v0.1-tables.md §2).
const (
	CodeInvalidRequest   = "INVALID_REQUEST"
	CodeNotFound         = "NOT_FOUND"
	CodeTimeout          = "TIMEOUT"
	CodeNavigationFailed = "NAVIGATION_FAILED"
	CodeInternal         = "INTERNAL"
)

// Error is an AWP error: what a response's error member carries.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func invalid(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *Error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf(format, args...)}
}

// with adds details to the error and returns it.
func (e *Error) with(kv ...any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Details[kv[i].(string)] = kv[i+1]
	}
	return e
}

// asError turns any error into an AWP error: an *Error as it is,
// anything else as INTERNAL.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// decodeParams reads a method's params into v, with messages that name
// the field in the agent's terms rather than Go's.
func decodeParams(raw json.RawMessage, v any) *Error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if raw[0] != '{' {
		return invalid("params must be a JSON object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := jsonPath(te.Field)
			if field == "" {
				field = "params"
			} else {
				field = "params." + field
			}
			return invalid("%s must be %s, not %s", field, article(jsonType(te.Type.Kind().String())), te.Value)
		}
		return invalid("params: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func jsonType(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "int", "int64", "float64", "uint", "int32":
		return "number"
	case "bool":
		return "boolean"
	case "map", "struct":
		return "object"
	case "slice":
		return "array"
	}
	return goKind
}

func article(t string) string {
	if t == "" {
		return t
	}
	switch t[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + t
	}
	return "a " + t
}

// jsonPath drops the names of embedded Go structs from a decoding error's
// field path: AWP keys are snake_case, Go type names are camelCase.
func jsonPath(field string) string {
	var keep []string
	for _, seg := range strings.Split(field, ".") {
		if strings.ToLower(seg) == seg {
			keep = append(keep, seg)
		}
	}
	return strings.Join(keep, ".")
}

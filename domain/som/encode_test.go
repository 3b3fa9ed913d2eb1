package som

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encodingJSON is the reference the hand-written encoder must match.
func encodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendSOMMatchesEncodingJSON(t *testing.T) {
	weird := "q\"b\\s\n\r\t\b\f\x01\x1f<>&\u2028\u2029\xff\xfeé日本"
	s := &SOM{
		SOMVersion: Version, URL: "https://x.test/?a=1&b=<2>", Title: weird, Lang: "en",
		Regions: []*Region{
			{ID: "r_form", Role: RegionForm, Label: "L", Action: "/a", Method: "POST", Elements: []*Element{
				{ID: "e_1", Role: RoleSelect, Actions: actionsByRole[RoleSelect], Attrs: &Attrs{ControlAttrs: &ControlAttrs{
					Options:  []Option{{Value: "1", Text: weird, Selected: true}, {Value: "", Text: "", Selected: false}},
					Multiple: true, Required: true, Disabled: true}}},
				{ID: "e_2", Role: RoleTable, Label: "T", Attrs: &Attrs{BlockAttrs: &BlockAttrs{Headers: []string{"a", ""}, Rows: [][]string{{"1", weird}, nil}, RowCount: 30}},
					Children: []*Element{{ID: "e_3", Role: RoleLink, Text: "x", Actions: actionsByRole[RoleLink], Attrs: &Attrs{Href: "/x", TestID: "t"}}}},
				{ID: "e_4", Role: RoleList, Attrs: &Attrs{BlockAttrs: &BlockAttrs{Ordered: true, Items: []Item{{Text: "i"}}}}},
				{ID: "e_5", Role: RoleTextInput, Label: weird, Attrs: &Attrs{ControlAttrs: &ControlAttrs{InputType: "email", Placeholder: "p", Value: "v", Required: true}}},
				{ID: "e_6", Role: RoleRadio, Attrs: &Attrs{ControlAttrs: &ControlAttrs{Checked: true, Group: "g", Disabled: true}}},
				{ID: "e_7", Role: RoleHeading, Text: "h", Attrs: &Attrs{Level: 3}},
				{ID: "e_8", Role: RoleImage, Attrs: &Attrs{Alt: "a", Src: "s"}},
				{ID: "e_9", Role: RoleSection, Attrs: &Attrs{BlockAttrs: &BlockAttrs{SectionLabel: "s"}}, Children: []*Element{{ID: "e_10", Role: RoleSeparator}}},
				{ID: "e_11", Role: RoleButton, Text: "b", Attrs: &Attrs{ControlAttrs: &ControlAttrs{FormID: "r_form", Disabled: true}, TestID: "z"}},
				{ID: "e_12", Role: RoleButton, Text: "empty embedded", Attrs: &Attrs{ControlAttrs: &ControlAttrs{}, BlockAttrs: &BlockAttrs{}, Href: "/h"}},
			}},
			{ID: "r_content", Role: RegionContent, Elements: []*Element{}},
			{ID: "r_x", Role: RegionMain},
		},
		Meta: Meta{HTMLBytes: 12345, SOMBytes: 99, ElementCount: 11, InteractiveCount: 5},
	}
	if got, want := appendSOM(nil, s), encodingJSON(t, s); !bytes.Equal(got, want) {
		t.Errorf("appendSOM =\n%s\nencoding/json =\n%s", got, want)
	}
	empty := &SOM{}
	if got, want := appendSOM(nil, empty), encodingJSON(t, empty); !bytes.Equal(got, want) {
		t.Errorf("appendSOM(empty) = %s, want %s", got, want)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"\\\n\x00\u2028\xff", strings.Repeat("é", 10)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendString(nil, s), encodingJSON(t, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestMarshalCompactSOMBytesIsExact(t *testing.T) {
	for _, n := range []int{0, 1, 50, 900, 9990, 100000} {
		s := &SOM{SOMVersion: Version, URL: strings.Repeat("u", n), Regions: []*Region{}}
		js, err := s.MarshalCompact()
		if err != nil {
			t.Fatal(err)
		}
		var back SOM
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatal(err)
		}
		if back.Meta.SOMBytes != len(js) {
			t.Errorf("url of %d bytes: som_bytes = %d, JSON is %d bytes", n, back.Meta.SOMBytes, len(js))
		}
	}
}

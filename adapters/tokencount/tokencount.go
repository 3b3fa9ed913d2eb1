// Package tokencount counts exact BPE tokens (cl100k_base, o200k_base)
// with tiktoken-go and its offline loader, so counting never downloads.
package tokencount

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Encodings the bench reports.
const (
	CL100K = "cl100k_base"
	O200K  = "o200k_base"
)

var setLoader sync.Once

// Counter counts tokens of one encoding. It is safe for concurrent use.
type Counter struct {
	enc *tiktoken.Tiktoken
}

// New loads an encoding from the vocabulary compiled into the binary.
func New(encoding string) (*Counter, error) {
	setLoader.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	enc, err := tiktoken.GetEncoding(encoding)
	if err != nil {
		return nil, fmt.Errorf("tokencount: load %s: %w", encoding, err)
	}
	return &Counter{enc: enc}, nil
}

// Count returns the number of tokens in s, special-token text counted as
// ordinary text (a page may well contain "<|endoftext|>").
func (c *Counter) Count(s string) int {
	return len(c.enc.EncodeOrdinary(s))
}

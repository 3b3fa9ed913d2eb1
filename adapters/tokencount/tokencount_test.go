package tokencount

import "testing"

func TestCount(t *testing.T) {
	cases := []struct {
		enc, text string
		want      int
	}{
		// Reference counts from OpenAI's tiktoken.
		{CL100K, "hello world", 2},
		{CL100K, "", 0},
		{CL100K, "<|endoftext|>", 7},
		{O200K, "hello world", 2},
	}
	for _, tc := range cases {
		c, err := New(tc.enc)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(tc.text); got != tc.want {
			t.Errorf("%s Count(%q) = %d, want %d", tc.enc, tc.text, got, tc.want)
		}
	}
}

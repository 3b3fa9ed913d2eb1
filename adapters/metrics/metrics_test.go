package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestMetrics(t *testing.T) {
	m := New()
	m.ConnOpened()
	m.ConnOpened()
	m.ConnClosed()
	m.SessionOpened()
	m.RequestDone("page.observe", "ok", time.Millisecond)
	m.RequestDone("page.navigate", "TIMEOUT", time.Second)
	m.RequestDone("bogus.method", "INVALID_REQUEST", time.Microsecond)
	m.PageLoaded(100*time.Millisecond, 2*time.Millisecond, 50000, 3000)

	if err := testutil.CollectAndCompare(m.connections, strings.NewReader(`
# HELP plasmate_connections_active Open agent connections.
# TYPE plasmate_connections_active gauge
plasmate_connections_active 1
`)); err != nil {
		t.Error(err)
	}
	if err := testutil.CollectAndCompare(m.errors, strings.NewReader(`
# HELP plasmate_errors_total AWP error responses, by error code.
# TYPE plasmate_errors_total counter
plasmate_errors_total{code="INVALID_REQUEST"} 1
plasmate_errors_total{code="TIMEOUT"} 1
`)); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(m.requests, "plasmate_request_duration_seconds"); n != 3 {
		t.Errorf("%d request series, want 3 (unknown methods fold into other)", n)
	}
	if got := testutil.ToFloat64(m.sessions); got != 1 {
		t.Errorf("sessions = %v", got)
	}
}

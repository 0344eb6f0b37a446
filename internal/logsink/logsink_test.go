package logsink_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/logsink"
)

// recorder is an underlying writer that keeps each Write call apart and
// can be held (every Write waits until release) or made to fail.
type recorder struct {
	mu      sync.Mutex
	calls   []string
	hold    chan struct{} // nil: never waits
	entered chan struct{} // a Write started (buffered)
	fail    error
}

func newRecorder() *recorder { return &recorder{entered: make(chan struct{}, 1024)} }

func (r *recorder) Write(p []byte) (int, error) {
	select {
	case r.entered <- struct{}{}:
	default:
	}
	r.mu.Lock()
	hold := r.hold
	r.mu.Unlock()
	if hold != nil {
		<-hold
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		err := r.fail
		return 0, err
	}
	r.calls = append(r.calls, string(p))
	return len(p), nil
}

func (r *recorder) held() { r.mu.Lock(); r.hold = make(chan struct{}); r.mu.Unlock() }

func (r *recorder) release() {
	r.mu.Lock()
	close(r.hold)
	r.hold = nil
	r.mu.Unlock()
}

func (r *recorder) failWith(err error) { r.mu.Lock(); r.fail = err; r.mu.Unlock() }

func (r *recorder) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.calls, "")
}

func (r *recorder) writes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// waitEntered waits for the underlying writer to be called.
func (r *recorder) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-r.entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the underlying writer was never called")
	}
}

func write(t *testing.T, w *logsink.Writer, s string) {
	t.Helper()
	if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
		t.Fatalf("Write(%q) = %d, %v", s, n, err)
	}
}

func TestIdleLineIsWrittenWithoutFlush(t *testing.T) {
	out := newRecorder()
	w := logsink.New(out, 0)
	defer w.Close()
	write(t, w, "one\n")
	out.waitEntered(t)
	deadline := time.Now().Add(5 * time.Second)
	for out.text() != "one\n" {
		if time.Now().After(deadline) {
			t.Fatalf("got %q, want the line written with no Flush or Close", out.text())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLinesWrittenDuringAWriteGoTogether(t *testing.T) {
	out := newRecorder()
	out.held()
	w := logsink.New(out, 0)
	write(t, w, "first\n")
	out.waitEntered(t) // the goroutine is inside the first write
	var want strings.Builder
	for i := range 10 {
		line := fmt.Sprintf("line %d\n", i)
		write(t, w, line)
		want.WriteString(line)
	}
	out.release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := out.writes()
	if len(got) != 2 || got[0] != "first\n" || got[1] != want.String() {
		t.Errorf("writes %q, want the first line, then the ten written meanwhile in one write", got)
	}
}

func TestOrderAndNothingLostAtClose(t *testing.T) {
	out := newRecorder()
	w := logsink.New(out, 64) // small: Write often waits for room
	var want strings.Builder
	for i := range 5000 {
		line := fmt.Sprintf("%05d\n", i)
		write(t, w, line)
		want.WriteString(line)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.text(); got != want.String() {
		t.Errorf("after Close: %d bytes, want %d, in order", len(got), want.Len())
	}
}

func TestConcurrentWritersKeepLinesWholeAndInOrder(t *testing.T) {
	out := newRecorder()
	w := logsink.New(out, 1<<10)
	const writers, lines = 8, 2000
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range lines {
				write(t, w, fmt.Sprintf("g%d %05d\n", g, i))
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, writers)
	got := strings.Split(strings.TrimSuffix(out.text(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines, want %d", len(got), writers*lines)
	}
	for _, line := range got {
		var g, i int
		if _, err := fmt.Sscanf(line, "g%d %05d", &g, &i); err != nil || g < 0 || g >= writers {
			t.Fatalf("line %q is not whole", line)
		}
		if i != next[g] {
			t.Fatalf("writer %d: line %d after %d", g, i, next[g]-1)
		}
		next[g]++
	}
}

func TestFullBufferMakesWriteWait(t *testing.T) {
	out := newRecorder()
	out.held()
	w := logsink.New(out, 16)
	write(t, w, "in the write\n")
	out.waitEntered(t)
	write(t, w, "buffered 1\n") // 11 of 16 bytes
	done := make(chan struct{})
	go func() {
		defer close(done)
		write(t, w, "buffered 2\n") // does not fit: waits
	}()
	select {
	case <-done:
		t.Fatal("Write returned while the buffer was full")
	case <-time.After(50 * time.Millisecond):
	}
	out.release()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Write still waits after the write finished")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.text(), "in the write\nbuffered 1\nbuffered 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLineLargerThanTheBufferGoesAlone(t *testing.T) {
	out := newRecorder()
	w := logsink.New(out, 8)
	big := strings.Repeat("x", 100) + "\n"
	write(t, w, "a\n")
	write(t, w, big)
	write(t, w, "b\n")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.text(), "a\n"+big+"b\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFailingWriterIsReportedAndLaterLinesStillTried(t *testing.T) {
	out := newRecorder()
	broken := errors.New("stderr closed")
	out.failWith(broken)
	w := logsink.New(out, 0)
	write(t, w, "lost\n")
	if err := w.Flush(); !errors.Is(err, broken) {
		t.Fatalf("Flush = %v, want the writer's error", err)
	}
	out.failWith(nil)
	write(t, w, "kept\n")
	if err := w.Close(); !errors.Is(err, broken) {
		t.Errorf("Close = %v, want the first error", err)
	}
	if got := out.text(); got != "kept\n" {
		t.Errorf("got %q, want the line written after the writer recovered", got)
	}
}

func TestWriteAfterCloseGoesStraightThrough(t *testing.T) {
	out := newRecorder()
	w := logsink.New(out, 0)
	write(t, w, "before\n")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, w, "after\n")
	if got := out.text(); got != "before\nafter\n" {
		t.Errorf("got %q", got)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestFlushWaitsForEarlierLines(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	w := logsink.New(writerFunc(func(p []byte) (int, error) {
		time.Sleep(time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), 0)
	defer w.Close()
	for i := range 100 {
		write(t, w, fmt.Sprintf("%d\n", i))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(buf.String(), "\n"); n != 100 {
		t.Errorf("%d lines written at Flush's return, want 100", n)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// gatedWriter lets each Write through only when it is given a token.
type gatedWriter struct {
	entered chan struct{}
	proceed chan struct{}
	mu      sync.Mutex
	text    strings.Builder
}

func newGatedWriter() *gatedWriter {
	return &gatedWriter{entered: make(chan struct{}, 100), proceed: make(chan struct{}, 100)}
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.entered <- struct{}{}
	<-g.proceed
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.text.Write(p)
}

func (g *gatedWriter) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the underlying writer was never called")
	}
}

// returnsSoon fails t unless f returns within a second.
func returnsSoon(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatalf("%s waits for the underlying writer", what)
	}
}

func TestRoomIsMadeWhenABatchIsTaken(t *testing.T) {
	out := newGatedWriter()
	w := logsink.New(out, 16)
	write(t, w, "in the write\n") // 13 bytes, taken at once
	out.waitEntered(t)
	write(t, w, "buffered 1\n") // 11 of 16 bytes
	third := make(chan struct{})
	go func() { defer close(third); write(t, w, "buffered 2\n") }() // waits for room
	out.proceed <- struct{}{}                                       // the first write ends; the goroutine takes "buffered 1"
	out.waitEntered(t)                                              // and is in its second write
	select {
	case <-third:
	case <-time.After(time.Second):
		t.Fatal("a Write that waited for room still waits while the batch that made room is written")
	}
	close(out.proceed)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.text.String(), "in the write\nbuffered 1\nbuffered 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWriteNeverWaitsForTheUnderlyingWriterWhileThereIsRoom(t *testing.T) {
	out := newGatedWriter()
	w := logsink.New(out, 0)
	out.proceed <- struct{}{}
	write(t, w, "first\n")
	if err := w.Flush(); err != nil { // idle again
		t.Fatal(err)
	}
	out.waitEntered(t)
	// After an idle spell, as at first, a line is handed over and
	// Write returns while the underlying writer is stuck.
	returnsSoon(t, "a line after an idle spell", func() { write(t, w, "second\n") })
	out.waitEntered(t)
	returnsSoon(t, "a line during a write", func() { write(t, w, "third\n") })
	close(out.proceed)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.text.String(), "first\nsecond\nthird\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTheFirstErrorIsTheOneReported(t *testing.T) {
	out := newRecorder()
	first, second := errors.New("first failure"), errors.New("second failure")
	w := logsink.New(out, 0)
	out.failWith(first)
	write(t, w, "a\n")
	_ = w.Flush()
	out.failWith(second)
	write(t, w, "b\n")
	_ = w.Flush()
	out.failWith(nil)
	if err := w.Close(); !errors.Is(err, first) {
		t.Errorf("Close = %v, want the first error", err)
	}
}

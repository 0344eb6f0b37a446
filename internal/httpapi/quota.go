package httpapi

import "sync"

// quotaHolds counts, per key, the scans admitted against the daily quota
// but not yet recorded (charged): a burst of one key's scans sees the ones
// ahead of it, so it cannot take more than the day has left. The counts
// are per instance: across instances a burst may still overshoot by the
// scans in flight elsewhere.
type quotaHolds struct {
	mu   sync.Mutex
	held map[string]int64
}

func newQuotaHolds() *quotaHolds { return &quotaHolds{held: map[string]int64{}} }

// take holds one scan for key if used plus the scans already held stays
// under quota, and returns the func that lets the hold go (once the scan
// is charged or has failed).
func (q *quotaHolds) take(key string, used, quota int64) (release func(), ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if used+q.held[key] >= quota {
		return nil, false
	}
	q.held[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			q.mu.Lock()
			defer q.mu.Unlock()
			if q.held[key]--; q.held[key] <= 0 {
				delete(q.held, key)
			}
		})
	}, true
}

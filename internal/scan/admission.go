package scan

import (
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/admission"
)

// Priority orders scans waiting for admission: higher is served first.
type Priority int

// Queue priorities (SPEC §5: free low, pro normal, premium high).
const (
	PriorityLow Priority = iota
	PriorityNormal
	PriorityHigh
)

var priorityNames = [...]string{PriorityLow: "low", PriorityNormal: "normal", PriorityHigh: "high"}

// String returns low, normal or high.
func (p Priority) String() string {
	if p < PriorityLow || p > PriorityHigh {
		return fmt.Sprintf("priority(%d)", int(p))
	}
	return priorityNames[p]
}

// MarshalText writes the priority's name (plans are configured by it).
func (p Priority) MarshalText() ([]byte, error) {
	if p < PriorityLow || p > PriorityHigh {
		return nil, fmt.Errorf("scan: invalid priority %d", int(p))
	}
	return []byte(priorityNames[p]), nil
}

// UnmarshalText reads "low", "normal" or "high".
func (p *Priority) UnmarshalText(b []byte) error {
	for i, name := range priorityNames {
		if string(b) == name {
			*p = Priority(i)
			return nil
		}
	}
	return fmt.Errorf("scan: unknown priority %q (want low, normal or high)", b)
}

// class is the admission class of a queue priority.
func (p Priority) class() admission.Class {
	switch p {
	case PriorityHigh:
		return admission.High
	case PriorityNormal:
		return admission.Normal
	default:
		return admission.Low
	}
}

// priorityOf is the queue priority of an admission class.
func priorityOf(c admission.Class) Priority {
	switch c {
	case admission.High:
		return PriorityHigh
	case admission.Normal:
		return PriorityNormal
	default:
		return PriorityLow
	}
}

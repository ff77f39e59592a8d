package expiry

import "time"

// ExpiresAt is the external tests' handle on expiresAt: its fact reaches them.
func (p *Pool) ExpiresAt() time.Time { return p.expiresAt() } // want ExpiresAt:"random\\(calls expiresAt\\)"

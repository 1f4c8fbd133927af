package orbito

import "time"

// noDeadline is a deadline the seed bots never come near.
var noDeadline = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

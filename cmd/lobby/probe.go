package main

import (
	"fmt"
	"net/http"
	"os"
	"time"
)

// probe asks url once and returns the process exit code for a container
// health check: 0 when it answers 200 OK within 3 seconds, 1 otherwise.
func probe(url string) int {
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "probe:", url, "answered", resp.Status)
		return 1
	}
	return 0
}

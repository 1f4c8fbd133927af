// Package gtp is a client of the Go Text Protocol (GTP version 2), used to
// play go engines such as GNU Go against our bots in the arena, and the
// conversion between GTP vertices and the go engine's notation.
//
// GTP's column letters skip I ("A".."H", "J".."T"); ours keep it
// ("A".."S"). Rows are numbered from 1 at the bottom in both.
package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// GnuGo is where Debian's gnugo package installs GNU Go; scripts/test
// installs the package when it is missing.
const GnuGo = "/usr/games/gnugo"

// gtpColumns are GTP's column letters: I is skipped.
const gtpColumns = "ABCDEFGHJKLMNOPQRST"

// ourColumns are the go engine's column letters, I included.
const ourColumns = "ABCDEFGHIJKLMNOPQRS"

// MaxSize is the largest board both notations can name.
const MaxSize = 19

// ToGTP converts a move of the go engine ("C4", "J9" or "pass") on an n x n
// board to a GTP vertex ("C4", "K9" or "pass").
func ToGTP(move string, n int) (string, error) {
	if move == "pass" {
		return "pass", nil
	}
	col, row, err := parseVertex(move, n, ourColumns)
	if err != nil {
		return "", err
	}
	return gtpColumns[col:col+1] + strconv.Itoa(row), nil
}

// FromGTP converts a GTP vertex (any case, "pass" included) on an n x n
// board to a move of the go engine.
func FromGTP(vertex string, n int) (string, error) {
	v := strings.ToUpper(strings.TrimSpace(vertex))
	if v == "PASS" {
		return "pass", nil
	}
	col, row, err := parseVertex(v, n, gtpColumns)
	if err != nil {
		return "", err
	}
	return ourColumns[col:col+1] + strconv.Itoa(row), nil
}

// parseVertex reads a column letter of columns and a row 1..n without
// leading zeros.
func parseVertex(v string, n int, columns string) (col, row int, err error) {
	if n < 1 || n > MaxSize {
		return 0, 0, fmt.Errorf("board size %d out of 1..%d", n, MaxSize)
	}
	if len(v) < 2 || len(v) > 3 {
		return 0, 0, fmt.Errorf("vertex %q: want a column letter and a row", v)
	}
	col = strings.IndexByte(columns[:n], v[0])
	row, err = strconv.Atoi(v[1:])
	if col < 0 || err != nil || row < 1 || row > n || v[1] < '1' || v[1] > '9' {
		return 0, 0, fmt.Errorf("vertex %q is not on the %dx%d board (columns %s, rows 1-%d)", v, n, n, columns[:n], n)
	}
	return col, row, nil
}

// Response is one GTP response.
type Response struct {
	// ID is the command id echoed by the engine, -1 when there was none.
	ID int
	// OK is true for a success ("="), false for a failure ("?").
	OK bool
	// Text is the response text without the status and id, lines joined
	// with "\n" and surrounding space trimmed.
	Text string
}

// ReadResponse reads one response: a line starting with "=" or "?", an
// optional numeric id, the text over one or more lines, and an empty line.
// Empty lines before the response are skipped, as the protocol allows.
func ReadResponse(r *bufio.Reader) (Response, error) {
	var lines []string
	for {
		line, err := r.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			if err == io.EOF && len(lines) > 0 {
				break
			}
			return Response{}, fmt.Errorf("gtp: read response: %w", err)
		}
		line = strings.TrimRight(strings.ReplaceAll(line, "\r", ""), "\n")
		if strings.TrimSpace(line) == "" {
			if len(lines) == 0 {
				if err == io.EOF {
					return Response{}, fmt.Errorf("gtp: read response: %w", io.ErrUnexpectedEOF)
				}
				continue
			}
			break
		}
		lines = append(lines, line)
		if err == io.EOF {
			break
		}
	}
	first := lines[0]
	if first[0] != '=' && first[0] != '?' {
		return Response{}, fmt.Errorf("gtp: response %q does not start with = or ?", first)
	}
	resp := Response{ID: -1, OK: first[0] == '='}
	rest := first[1:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits > 0 {
		id, err := strconv.Atoi(rest[:digits])
		if err != nil {
			return Response{}, fmt.Errorf("gtp: response id %q: %w", rest[:digits], err)
		}
		resp.ID = id
		rest = rest[digits:]
	}
	lines[0] = rest
	resp.Text = strings.TrimSpace(strings.Join(lines, "\n"))
	return resp, nil
}

// Error is a failure response ("? message") of the engine.
type Error struct {
	Command string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("gtp: %s: engine says %q", e.Command, e.Message) }

// Client drives one GTP engine process. It is safe for use by one
// goroutine at a time (a mutex serialises commands).
type Client struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	nextID int
	closed bool
}

// Start runs the engine at path with args (e.g. "--mode", "gtp") and
// returns a client speaking to its standard input and output.
func Start(path string, args ...string) (*Client, error) {
	cmd := exec.Command(path, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: stdin of %s: %w", path, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: stdout of %s: %w", path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("gtp: start %s: %w", path, err)
	}
	return &Client{cmd: cmd, in: in, out: bufio.NewReader(out), nextID: 1}, nil
}

// Command sends one command with its arguments and returns the response
// text. A failure response is an *Error.
func (c *Client) Command(name string, args ...string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", errors.New("gtp: client closed")
	}
	line := name
	if len(args) > 0 {
		line += " " + strings.Join(args, " ")
	}
	if strings.ContainsAny(line, "\n\r") {
		return "", fmt.Errorf("gtp: command %q contains a line break", line)
	}
	id := c.nextID
	c.nextID++
	if _, err := fmt.Fprintf(c.in, "%d %s\n", id, line); err != nil {
		return "", fmt.Errorf("gtp: send %q: %w", line, err)
	}
	resp, err := ReadResponse(c.out)
	if err != nil {
		return "", fmt.Errorf("%s: %w", line, err)
	}
	if resp.ID != id {
		return "", fmt.Errorf("gtp: %s: response id %d, want %d", line, resp.ID, id)
	}
	if !resp.OK {
		return "", &Error{Command: line, Message: resp.Text}
	}
	return resp.Text, nil
}

// Close asks the engine to quit and waits for the process to end.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	_, quitErr := c.Command("quit")
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	closeErr := c.in.Close()
	if quitErr != nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
		return fmt.Errorf("gtp: quit: %w", quitErr)
	}
	waitErr := c.cmd.Wait()
	if waitErr != nil {
		return fmt.Errorf("gtp: wait: %w", waitErr)
	}
	if closeErr != nil && !errors.Is(closeErr, io.ErrClosedPipe) {
		return fmt.Errorf("gtp: close stdin: %w", closeErr)
	}
	return nil
}

// LoadSGF loads the game in the SGF file at path onto the engine's board
// (GTP loadsgf: the board size, the setup stones and every move) and
// returns the color to move next, "black" or "white".
func (c *Client) LoadSGF(path string) (string, error) {
	out, err := c.Command("loadsgf", path)
	if err != nil {
		return "", err
	}
	return strings.ToLower(out), nil
}

// Stones lists the stones of color ("black" or "white") on the engine's
// n x n board in the go engine's notation (GTP list_stones, converted).
func (c *Client) Stones(color string, n int) ([]string, error) {
	out, err := c.Command("list_stones", color)
	if err != nil {
		return nil, err
	}
	var stones []string
	for _, v := range strings.Fields(out) {
		s, err := FromGTP(v, n)
		if err != nil {
			return nil, fmt.Errorf("gtp: list_stones %s: %w", color, err)
		}
		stones = append(stones, s)
	}
	return stones, nil
}

// CheckBoard reports how the engine's n x n board differs from rows, a go
// board view of our engine (n strings, top row first, 'X' black, 'O' white,
// anything else empty): nil when both hold exactly the same stones.
func (c *Client) CheckBoard(rows []string) error {
	n := len(rows)
	for _, side := range []struct {
		color string
		stone byte
	}{{"black", 'X'}, {"white", 'O'}} {
		got, err := c.Stones(side.color, n)
		if err != nil {
			return err
		}
		var want []string
		for i, row := range rows {
			for col := range min(len(row), len(ourColumns)) {
				if row[col] == side.stone {
					want = append(want, ourColumns[col:col+1]+strconv.Itoa(n-i))
				}
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			return fmt.Errorf("gtp: %s stones: the engine has %d %v, the board %d %v", side.color, len(got), got, len(want), want)
		}
	}
	return nil
}

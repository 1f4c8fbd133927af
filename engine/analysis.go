package engine

// Analyser is implemented by a Game whose strongest bot can say what it
// thinks of a position, for the review of finished games (OGS's AI review,
// lichess's analysis): how the position stands for the side to move and
// the move the analyser prefers.
//
// An analysis is a pure function of the position, the budget and its seed:
// it reads no clock and has no deadline (a loaded machine makes it slower,
// never different), so tests and stored reviews are repeatable. It runs on
// the calling goroutine (one search thread, which takes an engine search
// slot like a bot's, see AcquireSearch) and does not change s; like any
// use of a State it must not run beside another use of s (analyse a Clone
// of a room's state). Its cost is bounded by the budget; each game's
// docs/engines page gives the CPU time of one position at the default
// budget.
type Analyser interface {
	// Analyse analyses s for seat, which must be the seat to move (in a
	// 2048 race, a seat whose board is not finished). A finished game is
	// refused with an *Error of code CodeGameOver, another seat with
	// CodeNotYourTurn, a state of another game with CodeUnknownGame.
	Analyse(s State, seat int, budget Budget) (Analysis, error)
}

// Budget bounds one analysis.
type Budget struct {
	// Work bounds the search, counted in the Unit the analysis reports:
	// playouts (go, queens), positions (orbito on 3 or more orbits, the
	// alpha-beta of forte) or chance nodes (2048, the expectimax of
	// forte). 0 means the game's default; solved tables (morris, orbito on
	// 2 orbits) need none and ignore it.
	Work int
	// Seed seeds the random source of Monte Carlo searches (go, queens);
	// the other methods are deterministic and ignore it.
	Seed uint64
}

// Outlook is the exact result of a position for the side to move, with
// perfect play from both sides.
type Outlook string

// The outlooks.
const (
	OutlookWin  Outlook = "win"
	OutlookDraw Outlook = "draw"
	OutlookLoss Outlook = "loss"
)

// Better reports whether o is a better result than p for the same side
// ("win" > "draw" > "loss"); an empty outlook (not known) is below all.
func (o Outlook) Better(p Outlook) bool { return o.rank() > p.rank() }

func (o Outlook) rank() int {
	switch o {
	case OutlookWin:
		return 3
	case OutlookDraw:
		return 2
	case OutlookLoss:
		return 1
	}
	return 0
}

// Opposite is o seen by the other side: a win for one is a loss for the
// other; draw and unknown stay.
func (o Outlook) Opposite() Outlook {
	switch o {
	case OutlookWin:
		return OutlookLoss
	case OutlookLoss:
		return OutlookWin
	}
	return o
}

// The methods of an analysis (Analysis.Method).
const (
	// MethodTable: the game is solved; every outlook is exact.
	MethodTable = "table"
	// MethodMCTS: Monte Carlo tree search; WinRate is set.
	MethodMCTS = "mcts"
	// MethodAlphaBeta: alpha-beta search on a static evaluation; Eval is
	// set unless the search proved the result (Outlook).
	MethodAlphaBeta = "alphabeta"
	// MethodExpectimax: expectimax over the chance tiles; Eval is set.
	MethodExpectimax = "expectimax"
)

// The units of Budget.Work and Analysis.Work.
const (
	UnitPlayouts    = "playouts"
	UnitPositions   = "positions"
	UnitChanceNodes = "chance_nodes"
)

// Analysis is what an Analyser says of one position, for the side to move
// (Seat). Which of Outlook, WinRate and Eval are set depends on the method;
// a JSON client reads the ones present.
type Analysis struct {
	// Seat is the side analysed: the seat to move.
	Seat int `json:"seat"`
	// Method is how the analysis was made: MethodTable, MethodMCTS,
	// MethodAlphaBeta or MethodExpectimax.
	Method string `json:"method"`
	// Outlook is the exact result with perfect play, when it is known:
	// always with MethodTable; when a search proved it otherwise (a forced
	// line within the alpha-beta's horizon or a board searched to its end,
	// a root proved by the queens solver, a go position where passing ends
	// the game won). Empty when not known.
	Outlook Outlook `json:"outlook,omitempty"`
	// WinRate is, with MethodMCTS, the share of the search's simulations
	// through the preferred move that Seat won, in [0, 1] (1 or 0 when the
	// result is proved).
	WinRate *float64 `json:"winRate,omitempty"`
	// Eval is the bot's static evaluation backed up by the search, for
	// Seat, higher better; its scale is the game's. Orbito (alpha-beta):
	// the line potential, the sum over the lines as they will stand after
	// each of the next 2n rotations (16 on 5 orbits) of 3^a for a line
	// holding a stones of Seat and none of the opponent's, minus 3^b for
	// one holding b of the opponent's and none of Seat's; about ±1.3e8 when
	// the evaluation sees a threat that cannot be stopped (a heuristic
	// verdict; a proved result is in Outlook instead). 2048 (expectimax):
	// the expected value of the board heuristic Bitboard.Evaluate (200,000
	// per live row and column, plus empty cells and merges, less
	// unsmoothness and large tiles: a live board is worth at least about
	// 1e6) after the preferred move, the tile that follows and Depth-1 more
	// moves; 0 means every line of play the search sees loses.
	Eval *float64 `json:"eval,omitempty"`
	// Best is the preferred move first (the move the game's strongest bot
	// plays from this position with this budget and seed). With
	// MethodTable the other moves that keep the best outlook follow, in
	// Legal order, so a move played that is not in Best changed the
	// outlook: a mistake.
	Best []string `json:"best"`
	// Moves are the values of the moves the analysis looked at, in Legal
	// order: every legal move with MethodTable (its Outlook), the searched
	// root moves with MethodMCTS (WinRate and Visits; Outlook when proved),
	// every legal direction with MethodExpectimax (Eval). Empty with
	// MethodAlphaBeta, whose cut-offs give bounds, not values, for the
	// moves it does not prefer.
	Moves []MoveValue `json:"moves,omitempty"`
	// Work is the search done, in Unit (0 for a table). It may pass
	// Budget.Work by a little: a search looks at the budget between nodes,
	// and an alpha-beta node counts all its children first.
	Work int `json:"work,omitempty"`
	// Unit is the unit of Work and Budget.Work: UnitPlayouts,
	// UnitPositions or UnitChanceNodes; empty for a table.
	Unit string `json:"unit,omitempty"`
	// Depth is the deepest search completed, in the mover's moves
	// (MethodAlphaBeta: plies, MethodExpectimax: Seat's moves).
	Depth int `json:"depth,omitempty"`
}

// MoveValue is the value of one move for the side that plays it, as
// Analysis describes it.
type MoveValue struct {
	// Move is the move, in the game's notation.
	Move string `json:"move"`
	// Outlook is the exact result after the move, for the side that plays
	// it, when known.
	Outlook Outlook `json:"outlook,omitempty"`
	// WinRate is the share of simulations through the move that its
	// player won (MethodMCTS).
	WinRate *float64 `json:"winRate,omitempty"`
	// Eval is the move's value on Analysis.Eval's scale.
	Eval *float64 `json:"eval,omitempty"`
	// Visits is the number of simulations through the move (MethodMCTS).
	Visits int `json:"visits,omitempty"`
}

// Float returns a pointer to v, for Analysis.WinRate and Eval.
func Float(v float64) *float64 { return &v }

// AnalysedState is how the Analyse of a turn-based game begins: es as the
// game's own state type S, or the error the Analyser contract asks for:
// CodeUnknownGame for a state of another game, CodeGameOver for a finished
// game, CodeNotYourTurn when seat is not the seat to move. game names the
// game in the first message.
func AnalysedState[S State](es State, seat int, game string) (S, error) {
	s, ok := es.(S)
	if !ok {
		return s, Errorf(CodeUnknownGame, "%s analysis: a %T is not a state of %s", game, es, game)
	}
	if s.Outcome().Over {
		return s, Errorf(CodeGameOver, "the game is over")
	}
	if turn, _ := s.Turn(); seat != turn {
		return s, Errorf(CodeNotYourTurn, "seat %d is not to move: it is seat %d's turn", seat, turn)
	}
	return s, nil
}

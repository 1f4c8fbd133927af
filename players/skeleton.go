package players

import (
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Look-alike names (docs/protocol.md, "What an attacker cannot do"): a
// guest may not show a name that looks like an account's, nor a name with
// nothing visible in it; an account may not take a name that looks like
// another account's. Two names look alike when they have a skeleton in
// common: Unicode's confusables skeleton (UTS #39, from the confusables
// table of package confusables, generated from Unicode's
// confusables.txt) of the name after NFKC (full-width and other
// compatibility forms become their plain letters), without default
// ignorable code points (zero-width characters, fillers, variation
// selectors) and combining marks, and without case.

// fold is Unicode's case folding.
var fold = cases.Fold()

// ignorable reports whether r is a default ignorable code point (Unicode's
// Default_Ignorable_Code_Point: format characters, fillers such as U+3164
// HANGUL FILLER, variation selectors): nothing a reader sees.
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}

// bare is s in NFD without its default ignorable code points and its
// combining marks ("é" is "e", "k\u200Bate" is "kate").
func bare(s string) string {
	return strings.Map(func(r rune) rune {
		if ignorable(r) || unicode.Is(unicode.M, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
}

// skeleton is the one skeleton of s as written: NFKC, bare, confusables'
// skeleton, then without case and its skeleton again (so that what folds
// into a confusable, and what the table maps to a capital, meet).
func skeleton(s string) string {
	s = bare(confusables.Skeleton(bare(norm.NFKC.String(s))))
	return bare(confusables.Skeleton(fold.String(s)))
}

// Skeletons are the skeletons of name by which look-alike names are found:
// that of the name as written and that of the name without case (they
// differ where a capital looks like another lower-case letter: "I" like
// "l", so "Ian" has "lan" and "ian"). Two names look alike when they
// share one. At most two, never empty for a name with a visible letter
// or digit.
func Skeletons(name string) []string {
	a, b := skeleton(name), skeleton(fold.String(name))
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// MaxSkeleton is the longest skeleton an account's name can have, in
// bytes; a longer one is no account's.
const MaxSkeleton = 4 * AccountNameMax

// Visible reports whether name has a letter or a digit a reader sees: not
// a default ignorable code point (U+3164 HANGUL FILLER is a letter to
// Unicode, and invisible), not a mark, a space or a symbol (U+2800
// BRAILLE PATTERN BLANK).
func Visible(name string) bool {
	for _, r := range name {
		if !ignorable(r) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
	}
	return false
}

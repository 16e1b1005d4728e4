package io.sluice.sql;

import java.util.Collection;
import java.util.Locale;

/**
 * The name a misspelt one was probably meant to be, for an error's "did you mean": the candidate
 * at the smallest edit distance (Levenshtein with swaps of neighbouring letters, ignoring case), if it is close enough to be a typo
 * rather than another name: at most 2 edits and a third of the word's letters (none for a word of
 * one or two letters, which any other short name is as close to).
 */
final class Spelling {
    private Spelling() {
    }

    /** The closest candidate to {@code word}, or null when none is close; ties go to the first. */
    static String closest(final String word, final Collection<String> candidates) {
        final String w = word.toLowerCase(Locale.ROOT);
        final int limit = w.length() < 3 ? 0 : Math.min(2, Math.max(1, w.length() / 3));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : candidates) {
            final String c = candidate.toLowerCase(Locale.ROOT);
            if (c.equals(w)) {
                continue;
            }
            final int d = distance(w, c);
            if (d <= limit && d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best;
    }

    /**
     * The edit distance: insertions, deletions, substitutions and swaps of two neighbouring letters
     * (the commonest typo, {@code wiht}) that turn {@code a} into {@code b}, each counting 1.
     */
    static int distance(final String a, final String b) {
        final int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}

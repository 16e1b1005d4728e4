package io.sluice.engine.expr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code e LIKE pattern} where the pattern's wildcards are {@code %} only: it is cut at each
 * {@code %} into parts that must appear in order, the first at the start unless the pattern
 * begins with {@code %}, the last at the end unless it ends with {@code %}; a pattern without
 * {@code %} matches the equal string only. That covers equality, prefix, suffix, contains and
 * TPC-H's {@code '%special%requests%'}.
 */
public record Like(Expr value, String pattern) implements Expr {
    public Like {
        if (pattern.indexOf('_') >= 0 || pattern.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("LIKE '" + pattern + "': only % wildcards are supported, not _ or escapes");
        }
    }

    @Override
    public Evaluator bind(final RowType input) {
        final String[] pieces = pattern.split("%", -1);
        final byte[] first = pieces[0].getBytes(StandardCharsets.UTF_8);
        if (pieces.length == 1) {
            return new Matcher(value.bind(input), this, first, null, new byte[0][]);
        }
        final List<byte[]> inner = new ArrayList<>();
        for (int i = 1; i < pieces.length - 1; i++) {
            if (!pieces[i].isEmpty()) {
                inner.add(pieces[i].getBytes(StandardCharsets.UTF_8));
            }
        }
        return new Matcher(value.bind(input), this, first, pieces[pieces.length - 1].getBytes(StandardCharsets.UTF_8),
                inner.toArray(new byte[0][]));
    }

    @Override
    public String toString() {
        return value + " LIKE '" + pattern + "'";
    }

    /**
     * The pattern compiled to a prefix, a suffix (null: the pattern has no {@code %} and the string
     * must equal the prefix) and the non-empty parts between them, each found at its leftmost place
     * after the previous one (the leftmost leaves the most room for the rest) by {@link #indexOf}.
     */
    private static final class Matcher extends StringPredicate {
        private final Like like;
        private final byte[] prefix;
        private final byte[] suffix;
        private final byte[][] inner;
        private final long[] innerFirst;
        private final long[] innerLast;

        Matcher(final Evaluator input, final Like like, final byte[] prefix, final byte[] suffix,
                final byte[][] inner) {
            super(input);
            this.like = like;
            this.prefix = prefix;
            this.suffix = suffix;
            this.inner = inner;
            this.innerFirst = new long[inner.length];
            this.innerLast = new long[inner.length];
            for (int p = 0; p < inner.length; p++) {
                innerFirst[p] = broadcast(inner[p][0]);
                innerLast[p] = broadcast(inner[p][inner[p].length - 1]);
            }
        }

        /**
         * The rows of a plain column one after the other: the first inner part is looked for across
         * the batch's bytes, not row by row, and the place found serves every row up to it (it is the
         * leftmost at or after each of their starts); a row whose part would end past the row's end
         * has none.
         */
        @Override
        void testAll(final byte[] bytes, final int[] offsets, final int n, final boolean[] out) {
            if (suffix == null || inner.length == 0) {
                for (int i = 0; i < n; i++) {
                    out[i] = test(bytes, offsets[i], offsets[i + 1] - offsets[i]);
                }
                return;
            }
            final byte[] head = prefix;
            final byte[] tail = suffix;
            final byte[] part = inner[0];
            final int m = part.length;
            final int batchEnd = offsets[n];
            // The leftmost start of part at or after the last place searched from, MAX_VALUE when none is.
            int found = -1;
            for (int i = 0; i < n; i++) {
                final int start = offsets[i];
                final int end = offsets[i + 1];
                if (end - start < head.length + tail.length
                        || !regionEquals(bytes, start, head, 0, head.length)
                        || !regionEquals(bytes, end - tail.length, tail, 0, tail.length)) {
                    out[i] = false;
                    continue;
                }
                final int from = start + head.length;
                final int innerEnd = end - tail.length;
                if (found < from) {
                    final int at = indexOf(bytes, from, batchEnd, part, innerFirst[0], innerLast[0]);
                    found = at < 0 ? Integer.MAX_VALUE : at;
                }
                out[i] = found <= innerEnd - m && innerParts(bytes, found + m, innerEnd, 1);
            }
        }

        @Override
        boolean test(final byte[] bytes, final int offset, final int length) {
            final byte[] head = prefix;
            final byte[] tail = suffix;
            if (tail == null) {
                return length == head.length && Arrays.equals(bytes, offset, offset + length, head, 0, head.length);
            }
            return length >= head.length + tail.length
                    && regionEquals(bytes, offset, head, 0, head.length)
                    && regionEquals(bytes, offset + length - tail.length, tail, 0, tail.length)
                    && innerParts(bytes, offset + head.length, offset + length - tail.length, 0);
        }

        /** Whether the inner parts from {@code first} on appear in order in {@code bytes[from, end)}. */
        private boolean innerParts(final byte[] bytes, final int from, final int end, final int first) {
            int pos = from;
            for (int p = first; p < inner.length; p++) {
                final byte[] part = inner[p];
                final int at = indexOf(bytes, pos, end, part, innerFirst[p], innerLast[p]);
                if (at < 0) {
                    return false;
                }
                pos = at + part.length;
            }
            return true;
        }

        @Override
        public String toString() {
            return like.toString();
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;

    private static long broadcast(final byte b) {
        return (b & 0xFFL) * 0x0101010101010101L;
    }

    /** The high bit of each byte of {@code x} that is zero, the other bits clear (exact: no borrow between bytes). */
    private static long zeroBytes(final long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    /**
     * The leftmost start of {@code part} (non-empty) in {@code bytes[from, end)}, or -1. Eight starts
     * at a time: the bytes where both the part's first byte and, {@code part.length - 1} further on,
     * its last byte are found (two long reads, one zero-byte test of both) are the candidates, and only
     * they are compared in full.
     */
    static int indexOf(final byte[] bytes, final int from, final int end, final byte[] part, final long first,
                       final long last) {
        final int m = part.length;
        final int limit = end - m;
        int i = from;
        // Both reads, [i, i + 8) and [i + m - 1, i + m + 7), stay below end while i + 7 <= limit.
        for (; i + 7 <= limit; i += 8) {
            // A byte of the OR is zero where both the first and the last byte match.
            long candidates = zeroBytes(((long) LONGS.get(bytes, i) ^ first)
                    | ((long) LONGS.get(bytes, i + m - 1) ^ last));
            while (candidates != 0) {
                final int at = i + (Long.numberOfTrailingZeros(candidates) >>> 3);
                if (regionEquals(bytes, at + 1, part, 1, m - 2)) {
                    return at;
                }
                candidates &= candidates - 1;
            }
        }
        final byte b0 = part[0];
        final byte bLast = part[m - 1];
        for (; i <= limit; i++) {
            if (bytes[i] == b0 && bytes[i + m - 1] == bLast && regionEquals(bytes, i + 1, part, 1, m - 2)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code bytes[at, at + length)} equals {@code part[from, from + length)}; a negative length is empty. */
    private static boolean regionEquals(final byte[] bytes, final int at, final byte[] part, final int from,
                                        final int length) {
        for (int j = 0; j < length; j++) {
            if (bytes[at + j] != part[from + j]) {
                return false;
            }
        }
        return true;
    }
}

package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * The key values of one batch for a hash table (group-by keys, join keys): each key column as
 * longs or as a string vector with its NULL rows, plus one 64-bit hash per row mixing all key
 * columns. A NULL key value hashes as {@link #NULL_HASH} whatever value the row holds, so NULL is
 * one key of its own, apart from 0 and ''. One instance per worker.
 */
final class KeyColumns {
    private final Evaluator[] evaluators;
    private final boolean[] isString;
    final long[][] longs;
    final StringVector[] strings;
    private static final long SEED = 0x2545F4914F6CDD1DL;
    /** The hash of a NULL key value: a constant no value is likelier to share than any other. */
    static final long NULL_HASH = 0x6A09E667F3BCC909L;
    /** Per key column, its NULL rows as a {@link NullMask} bitmap, or null when none (valid until the next evaluation). */
    final long[][] nulls;
    /** The rows where any key column is NULL, or null when none: a join key that matches nothing. */
    private long[] anyNull;
    private final long[] anyNullScratch = new long[NullMask.words(Block.MAX_ROWS)];

    /**
     * One hash per row, made by the first evaluation that hashes: a plan makes many instances only to
     * read their key types, and a row array of each would be 64 KiB zeroed for nothing.
     */
    long[] hashes;
    private final StringVector[] dictionaries;
    private final long[][] dictionaryHashes;
    int count;

    KeyColumns(final List<Expr> keys, final RowType input) {
        final List<Evaluator> bound = new java.util.ArrayList<>();
        for (final Expr key : keys) {
            final Evaluator e = key.bind(input);
            final DataType t = e.type();
            if (t.isWide()) {
                // A 128-bit key (a SUM, as Q15 joins on) is two long key columns, its halves.
                bound.add(new Decimal128Half(e, true));
                bound.add(new Decimal128Half(e, false));
                continue;
            }
            if (t.kind() == DataType.Kind.DOUBLE) {
                bound.add(new CanonicalDouble(e));
                continue;
            }
            if (t.kind() != DataType.Kind.STRING && !t.isExactNumeric()) {
                throw new IllegalArgumentException("key " + key + " has type " + t
                        + ": keys are integers, decimals, doubles, dates, strings or 128-bit decimals (sums)");
            }
            bound.add(e);
        }
        final int width = bound.size();
        evaluators = bound.toArray(new Evaluator[0]);
        isString = new boolean[width];
        longs = new long[width][];
        strings = new StringVector[width];
        nulls = new long[width][];
        dictionaries = new StringVector[width];
        dictionaryHashes = new long[width][];
        for (int k = 0; k < width; k++) {
            isString[k] = evaluators[k].type().kind() == DataType.Kind.STRING;
        }
    }

    /**
     * One half of a 128-bit key as a long key column: the high half as INT64, the low half with the
     * key's scale (so that a join checks both sides' scales). Both share the key's NULL rows.
     */
    private static final class Decimal128Half extends Evaluator {
        private final Evaluator key;
        private final boolean high;

        Decimal128Half(final Evaluator key, final boolean high) {
            super(high || key.type().scale() == 0 ? DataType.INT64 : DataType.decimal(key.type().scale()));
            this.key = key;
            this.high = high;
        }

        @Override
        public long[] longs(final Batch batch) {
            // The high half is read first (key columns are evaluated in order), as Evaluator.highs asks.
            return high ? key.highs(batch) : key.lows(batch);
        }

        @Override
        public long[] nulls(final Batch batch) {
            return key.nulls(batch);
        }

        @Override
        public String toString() {
            return (high ? "high(" : "low(") + key + ")";
        }
    }

    /**
     * A double key column as its bits, with one bit pattern per value that compares equal: 0.0 for
     * -0.0, and one NaN for all of them (DuckDB groups NaNs together), so that equal keys hash alike.
     */
    private static final class CanonicalDouble extends Evaluator {
        private final Evaluator key;
        private final long[] bits = new long[MAX_ROWS];

        CanonicalDouble(final Evaluator key) {
            super(DataType.DOUBLE);
            this.key = key;
        }

        @Override
        public long[] longs(final Batch batch) {
            final long[] raw = key.longs(batch);
            final int n = batch.rowCount();
            for (int i = 0; i < n; i++) {
                final double v = Double.longBitsToDouble(raw[i]);
                bits[i] = v == 0.0 ? 0L : Double.doubleToLongBits(v);
            }
            return bits;
        }

        @Override
        public long[] nulls(final Batch batch) {
            return key.nulls(batch);
        }

        @Override
        public String toString() {
            return key.toString();
        }
    }

    /** The types of the key columns. */
    DataType[] types() {
        final DataType[] t = new DataType[evaluators.length];
        for (int k = 0; k < t.length; k++) {
            t[k] = evaluators[k].type();
        }
        return t;
    }

    private long[] hashesMade() {
        if (hashes == null) {
            hashes = new long[Block.MAX_ROWS];
        }
        return hashes;
    }

    /** One row with no key columns: the single group of an aggregation without keys. */
    void constantRow() {
        count = 1;
        hashesMade()[0] = SEED;
        anyNull = null;
    }

    /**
     * The rows of the last evaluated batch where some key column is NULL, as a {@link NullMask}
     * bitmap, or null when there are none.
     */
    long[] anyNull() {
        return anyNull;
    }

    /** Whether row {@code i} of the last evaluated batch has a NULL in some key column. */
    boolean hasNull(final int i) {
        return anyNull != null && NullMask.isNull(anyNull, i);
    }

    /** Reads each key column's NULL rows and their union. */
    private void evaluateNulls(final Batch batch) {
        anyNull = null;
        final int words = NullMask.words(count);
        for (int k = 0; k < evaluators.length; k++) {
            final long[] n = evaluators[k].nulls(batch);
            nulls[k] = n;
            if (n == null) {
                continue;
            }
            if (anyNull == null) {
                anyNull = anyNullScratch;
                System.arraycopy(n, 0, anyNull, 0, words);
            } else {
                for (int w = 0; w < words; w++) {
                    anyNull[w] |= n[w];
                }
            }
        }
        if (anyNull != null && NullMask.count(anyNull, count) == 0) {
            anyNull = null;
        }
    }

    /** The values of integer key column {@code k} for a batch (valid until the next evaluation). */
    long[] values(final Batch batch, final int k) {
        return evaluators[k].longs(batch);
    }

    /** Evaluates the keys of a batch without hashing them (for a direct lookup by value). */
    void evaluateUnhashed(final Batch batch) {
        count = batch.rowCount();
        for (int k = 0; k < evaluators.length; k++) {
            if (isString[k]) {
                strings[k] = evaluators[k].strings(batch);
            } else {
                longs[k] = evaluators[k].longs(batch);
            }
        }
        evaluateNulls(batch);
    }

    /** The hash of each entry of a key column's dictionary, computed once per dictionary. */
    private long[] dictionaryHashes(final int k, final StringVector dictionary) {
        if (dictionaries[k] != dictionary) {
            final int size = dictionary.rowCount();
            final long[] h = new long[size];
            final byte[] bytes = dictionary.bytes();
            for (int d = 0; d < size; d++) {
                h[d] = Hashing.hashBytes(bytes, dictionary.offset(d), dictionary.length(d));
            }
            dictionaries[k] = dictionary;
            dictionaryHashes[k] = h;
        }
        return dictionaryHashes[k];
    }

    /** Evaluates the keys of a batch and hashes each row. */
    void evaluate(final Batch batch) {
        final int n = batch.rowCount();
        count = n;
        java.util.Arrays.fill(hashesMade(), 0, n, SEED);
        for (int k = 0; k < evaluators.length; k++) {
            if (isString[k]) {
                final StringVector s = evaluators[k].strings(batch);
                strings[k] = s;
                if (s.isDictionary()) {
                    final long[] entryHashes = dictionaryHashes(k, s.dictionary());
                    final int[] codes = s.codes();
                    for (int i = 0; i < n; i++) {
                        hashes[i] = Hashing.combine(hashes[i], entryHashes[codes[i]]);
                    }
                } else {
                    final byte[] bytes = s.bytes();
                    for (int i = 0; i < n; i++) {
                        hashes[i] = Hashing.combine(hashes[i], Hashing.hashBytes(bytes, s.offset(i), s.length(i)));
                    }
                }
            } else {
                final long[] v = evaluators[k].longs(batch);
                longs[k] = v;
                for (int i = 0; i < n; i++) {
                    hashes[i] = Hashing.combine(hashes[i], Hashing.mix(v[i]));
                }
            }
        }
        // After the values: an evaluator's arrays are valid until its next call.
        evaluateNulls(batch);
        if (anyNull != null) {
            rehashNulls(n);
        }
    }

    /**
     * As {@link #evaluate}, the hashes of the {@code listed} rows in {@code rows} only (each at its row's
     * position; the other rows' hashes are left as they were): a runtime filter's test of the rows an
     * earlier filter kept.
     */
    void evaluateRows(final Batch batch, final int[] rows, final int listed) {
        count = batch.rowCount();
        hashesMade();
        for (int k = 0; k < evaluators.length; k++) {
            final boolean first = k == 0;
            if (isString[k]) {
                final StringVector s = evaluators[k].strings(batch);
                strings[k] = s;
                final long[] entryHashes = s.isDictionary() ? dictionaryHashes(k, s.dictionary()) : null;
                for (int j = 0; j < listed; j++) {
                    final int i = rows[j];
                    final long h = entryHashes != null ? entryHashes[s.codes()[i]]
                            : Hashing.hashBytes(s.bytes(), s.offset(i), s.length(i));
                    hashes[i] = Hashing.combine(first ? SEED : hashes[i], h);
                }
            } else {
                final long[] v = evaluators[k].longs(batch);
                longs[k] = v;
                for (int j = 0; j < listed; j++) {
                    final int i = rows[j];
                    hashes[i] = Hashing.combine(first ? SEED : hashes[i], Hashing.mix(v[i]));
                }
            }
        }
        evaluateNulls(batch);
        if (anyNull != null) {
            for (int j = 0; j < listed; j++) {
                rehashNull(rows[j]);
            }
        }
    }

    /**
     * Redoes the hash of the rows with a NULL key column, each NULL column mixed in as
     * {@link #NULL_HASH} instead of whatever value the row holds.
     */
    private void rehashNulls(final int n) {
        for (int i = 0; i < n; i++) {
            rehashNull(i);
        }
    }

    private void rehashNull(final int i) {
        if (NullMask.isNull(anyNull, i)) {
            long h = SEED;
            for (int c = 0; c < evaluators.length; c++) {
                h = Hashing.combine(h, isNullAt(c, i) ? NULL_HASH : valueHash(c, i));
            }
            hashes[i] = h;
        }
    }

    private boolean isNullAt(final int k, final int i) {
        return nulls[k] != null && NullMask.isNull(nulls[k], i);
    }

    private long valueHash(final int k, final int i) {
        if (isString[k]) {
            final StringVector s = strings[k];
            return Hashing.hashBytes(s.bytes(), s.offset(i), s.length(i));
        }
        return Hashing.mix(longs[k][i]);
    }
}

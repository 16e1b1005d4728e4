package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * The key values of one batch for a hash table (group-by keys, join keys): each key column as
 * longs or as a string vector, plus one 64-bit hash per row mixing all key columns. One instance
 * per worker.
 */
final class KeyColumns {
    private final Evaluator[] evaluators;
    private final boolean[] isString;
    final long[][] longs;
    final StringVector[] strings;
    private static final long SEED = 0x2545F4914F6CDD1DL;

    final long[] hashes = new long[Block.MAX_ROWS];
    private final StringVector[] dictionaries;
    private final long[][] dictionaryHashes;
    int count;

    KeyColumns(final List<Expr> keys, final RowType input) {
        evaluators = new Evaluator[keys.size()];
        isString = new boolean[keys.size()];
        longs = new long[keys.size()][];
        strings = new StringVector[keys.size()];
        dictionaries = new StringVector[keys.size()];
        dictionaryHashes = new long[keys.size()][];
        for (int k = 0; k < evaluators.length; k++) {
            evaluators[k] = keys.get(k).bind(input);
            final DataType t = evaluators[k].type();
            isString[k] = t.kind() == DataType.Kind.STRING;
            if (!isString[k] && !t.isExactNumeric()) {
                throw new IllegalArgumentException("key " + keys.get(k) + " has type " + t
                        + ": keys are integers, decimals, dates or strings");
            }
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

    /** One row with no key columns: the single group of an aggregation without keys. */
    void constantRow() {
        count = 1;
        hashes[0] = SEED;
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
        java.util.Arrays.fill(hashes, 0, n, SEED);
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
                    continue;
                }
                final byte[] bytes = s.bytes();
                for (int i = 0; i < n; i++) {
                    hashes[i] = Hashing.combine(hashes[i], Hashing.hashBytes(bytes, s.offset(i), s.length(i)));
                }
            } else {
                final long[] v = evaluators[k].longs(batch);
                longs[k] = v;
                for (int i = 0; i < n; i++) {
                    hashes[i] = Hashing.combine(hashes[i], Hashing.mix(v[i]));
                }
            }
        }
    }
}

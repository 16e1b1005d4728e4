package io.sluice.engine.expr;

import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;

/**
 * A per-string test evaluated over a string column; for a dictionary-encoded column each
 * dictionary entry is tested once per dictionary and rows look their result up by code.
 */
abstract class StringPredicate extends Evaluator {
    private final Evaluator input;
    private final boolean[] out = new boolean[MAX_ROWS];
    private StringVector cachedDictionary;
    private boolean[] dictionaryResult;

    StringPredicate(final Evaluator input) {
        super(DataType.BOOLEAN);
        if (input.type().kind() != DataType.Kind.STRING) {
            throw new IllegalArgumentException(this + ": operand has type " + input.type() + ", expected a string");
        }
        this.input = input;
    }

    /** A string predicate is NULL where its input is. */
    @Override
    public long[] nulls(final Batch batch) {
        return input.nulls(batch);
    }

    /** Whether the string in {@code bytes[offset, offset + length)} passes. */
    abstract boolean test(byte[] bytes, int offset, int length);

    /**
     * {@link #test} of the first {@code n} strings of a plain vector (a column or a dictionary) into
     * {@code out}. A subclass overrides it to bind the call to its own final test (inlined or called
     * directly, not shared by every predicate's rows here) or to work across the rows' bytes at once.
     */
    void testAll(final byte[] bytes, final int[] offsets, final int n, final boolean[] out) {
        for (int i = 0; i < n; i++) {
            out[i] = test(bytes, offsets[i], offsets[i + 1] - offsets[i]);
        }
    }

    @Override
    public final boolean[] bools(final Batch batch) {
        final StringVector v = input.strings(batch);
        final int n = batch.rowCount();
        if (v.isDictionary()) {
            final StringVector dict = v.dictionary();
            if (dict != cachedDictionary) {
                dictionaryResult = new boolean[dict.rowCount()];
                testAll(dict.bytes(), dict.offsets(), dictionaryResult.length, dictionaryResult);
                cachedDictionary = dict;
            }
            final int[] codes = v.codes();
            for (int i = 0; i < n; i++) {
                out[i] = dictionaryResult[codes[i]];
            }
            return out;
        }
        testAll(v.bytes(), v.offsets(), n, out);
        return out;
    }
}

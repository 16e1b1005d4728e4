package io.sluice.zonemap;

import java.util.Arrays;

/**
 * A filter on one named column that {@link BlockPruner} checks against zonemaps. Constants are
 * zonemap keys: the value for integers, the scaled long for decimals, days since epoch for
 * dates, and {@link io.sluice.format.StringKey#of(String)} for strings. A null row matches no
 * predicate (SQL semantics).
 */
public sealed interface Predicate permits Predicate.Comparison, Predicate.Between, Predicate.In {
    /**
     * The column the predicate filters.
     *
     * @return the column's name, not blank
     */
    String column();

    /**
     * {@code column = key}.
     *
     * @param column the column's name, not blank
     * @param key    the constant as a zonemap key
     * @return the comparison
     * @throws IllegalArgumentException when the column name is null or blank
     */
    static Predicate eq(final String column, final long key) {
        return new Comparison(column, CompareOp.EQ, key);
    }

    /**
     * {@code column < key}.
     *
     * @param column the column's name, not blank
     * @param key    the constant as a zonemap key
     * @return the comparison
     * @throws IllegalArgumentException when the column name is null or blank
     */
    static Predicate lt(final String column, final long key) {
        return new Comparison(column, CompareOp.LT, key);
    }

    /**
     * {@code column <= key}.
     *
     * @param column the column's name, not blank
     * @param key    the constant as a zonemap key
     * @return the comparison
     * @throws IllegalArgumentException when the column name is null or blank
     */
    static Predicate le(final String column, final long key) {
        return new Comparison(column, CompareOp.LE, key);
    }

    /**
     * {@code column > key}.
     *
     * @param column the column's name, not blank
     * @param key    the constant as a zonemap key
     * @return the comparison
     * @throws IllegalArgumentException when the column name is null or blank
     */
    static Predicate gt(final String column, final long key) {
        return new Comparison(column, CompareOp.GT, key);
    }

    /**
     * {@code column >= key}.
     *
     * @param column the column's name, not blank
     * @param key    the constant as a zonemap key
     * @return the comparison
     * @throws IllegalArgumentException when the column name is null or blank
     */
    static Predicate ge(final String column, final long key) {
        return new Comparison(column, CompareOp.GE, key);
    }

    /**
     * {@code column BETWEEN lo AND hi} (both inclusive).
     *
     * @param column the column's name, not blank
     * @param lo     the lower bound as a zonemap key, inclusive
     * @param hi     the upper bound as a zonemap key, inclusive; below {@code lo} matches nothing
     * @return the range predicate
     * @throws IllegalArgumentException when the column name is null or blank
     */
    static Predicate between(final String column, final long lo, final long hi) {
        return new Between(column, lo, hi);
    }

    /**
     * {@code column IN (keys...)}.
     *
     * @param column the column's name, not blank
     * @param keys   the constants as zonemap keys, copied; none matches nothing
     * @return the list predicate
     * @throws IllegalArgumentException when the column name is null or blank, or {@code keys} is null
     */
    static Predicate in(final String column, final long... keys) {
        return new In(column, keys);
    }

    /**
     * {@code column op key}.
     *
     * @param column the column's name, not blank
     * @param op     the comparison, not null
     * @param key    the constant as a zonemap key
     */
    record Comparison(String column, CompareOp op, long key) implements Predicate {
        /**
         * Checks the column name and the operator.
         *
         * @param column the column's name, not blank
         * @param op     the comparison, not null
         * @param key    the constant as a zonemap key
         * @throws IllegalArgumentException when the column name is null or blank, or {@code op} is null
         */
        public Comparison {
            requireColumn(column);
            if (op == null) {
                throw new IllegalArgumentException("comparison on column '" + column + "' has no operator:"
                        + " use one of " + Arrays.toString(CompareOp.values()));
            }
        }

        @Override
        public String toString() {
            return column + " " + op.symbol() + " " + key;
        }
    }

    /**
     * {@code column BETWEEN lo AND hi}, both bounds inclusive; empty when {@code lo > hi}.
     *
     * @param column the column's name, not blank
     * @param lo     the lower bound as a zonemap key, inclusive
     * @param hi     the upper bound as a zonemap key, inclusive
     */
    record Between(String column, long lo, long hi) implements Predicate {
        /**
         * Checks the column name.
         *
         * @param column the column's name, not blank
         * @param lo     the lower bound as a zonemap key, inclusive
         * @param hi     the upper bound as a zonemap key, inclusive
         * @throws IllegalArgumentException when the column name is null or blank
         */
        public Between {
            requireColumn(column);
        }

        @Override
        public String toString() {
            return column + " BETWEEN " + lo + " AND " + hi;
        }
    }

    /** {@code column IN (keys)}; an empty list matches nothing. */
    final class In implements Predicate {
        private final String column;
        private final long[] keys;

        /**
         * A copy of {@code keys} is kept, so the caller may reuse its array.
         *
         * @param column the column's name, not blank
         * @param keys   the constants as zonemap keys, in any order; empty to match nothing
         * @throws IllegalArgumentException when the column name is null or blank, or {@code keys} is null
         */
        public In(final String column, final long[] keys) {
            requireColumn(column);
            if (keys == null) {
                throw new IllegalArgumentException("IN on column '" + column
                        + "' has a null key list: pass an array, empty to match nothing");
            }
            this.column = column;
            this.keys = keys.clone();
        }

        @Override
        public String column() {
            return column;
        }

        /**
         * The keys, in the order given (a copy).
         *
         * @return a new array of the keys
         */
        public long[] keys() {
            return keys.clone();
        }

        /**
         * Number of keys.
         *
         * @return the key count, 0 when the predicate matches nothing
         */
        public int size() {
            return keys.length;
        }

        /**
         * The key at a position.
         *
         * @param index the position, 0 to {@link #size()} - 1
         * @return the key, as given
         */
        public long key(final int index) {
            return keys[index];
        }

        @Override
        public boolean equals(final Object o) {
            return o instanceof In other && column.equals(other.column) && Arrays.equals(keys, other.keys);
        }

        @Override
        public int hashCode() {
            return 31 * column.hashCode() + Arrays.hashCode(keys);
        }

        @Override
        public String toString() {
            final StringBuilder sb = new StringBuilder(column).append(" IN (");
            for (int i = 0; i < keys.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(keys[i]);
            }
            return sb.append(')').toString();
        }
    }

    private static void requireColumn(final String column) {
        if (column == null || column.isBlank()) {
            throw new IllegalArgumentException("a predicate needs a column name, got "
                    + (column == null ? "null" : "'" + column + "'"));
        }
    }
}

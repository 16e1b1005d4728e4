package io.sluice.storage;

import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * A table of every stored kind for storage tests: 64- and 32-bit integers, a decimal of 64 and one of 128
 * bits, a date, a low-cardinality string (dictionary-encoded) and a high-cardinality one (plain, with
 * empty and non-ASCII values), each with NULLs; rows are kept as objects to compare reads with.
 */
final class MixedTable {
    static final Schema SCHEMA = Schema.parse(
            "i64:int64,i32:int32,dec:decimal(15,2),d:date,low:string,high:string,wide:decimal(38,2)");

    private MixedTable() {
    }

    /** {@code rows} rows from {@code seed} written as table {@code t} of a new temporary store. */
    static Stored create(final String prefix, final int rows, final long seed) {
        final Path dir;
        try {
            dir = Files.createTempDirectory(prefix);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final List<Object[]> written = rows(rows, seed);
        try (TableWriter writer = Store.create(dir).createTable("t", SCHEMA, null)) {
            for (final Object[] row : written) {
                for (int c = 0; c < row.length; c++) {
                    append(writer.column(c), row[c]);
                }
                writer.endRow();
            }
            return new Stored(dir, written, writer.finish());
        }
    }

    /** A table written by {@link #create} and the rows written; closing removes the store. */
    record Stored(Path dir, List<Object[]> rows, Table table) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            table.close();
            try (Stream<Path> files = Files.walk(dir)) {
                for (final Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Rows as objects: Long, Integer, Long (scaled), Integer (days), String, String, BigInteger (scaled), or null. */
    static List<Object[]> rows(final int n, final long seed) {
        final Random random = new Random(seed);
        final String[] flags = {"A", "N", "R", ""};
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {
                    i % 7 == 3 ? null : random.nextLong(),
                    i % 11 == 5 ? null : random.nextInt(),
                    i % 13 == 6 ? null : random.nextLong() % 1_000_000_00L,
                    i % 17 == 8 ? null : random.nextInt(20000),
                    i % 19 == 9 ? null : flags[random.nextInt(flags.length)],
                    i % 23 == 10 ? null : i % 5 == 0 ? "" : "s" + random.nextInt() + "\u00e9\u4e2d",
                    i % 9 == 4 ? null : new BigInteger(120, random).subtract(BigInteger.ONE.shiftLeft(119))});
        }
        return rows;
    }

    private static void append(final ColumnBuilder builder, final Object value) {
        if (value == null) {
            builder.appendNull();
        } else if (value instanceof BigInteger big) {
            builder.appendDecimal128(big.shiftRight(64).longValueExact(), big.longValue());
        } else if (value instanceof Long l) {
            builder.appendLong(l);
        } else if (value instanceof Integer i) {
            builder.appendInt(i);
        } else {
            builder.appendString((String) value);
        }
    }

    /** A decoded value in the form {@link #rows} keeps it. */
    static Object value(final ColumnVector v, final int r) {
        if (v.isNull(r)) {
            return null;
        }
        if (v instanceof LongVector lv) {
            return lv.get(r);
        }
        if (v instanceof IntVector iv) {
            return iv.get(r);
        }
        if (v instanceof Decimal128Vector dv) {
            return dv.get(r).unscaledValue();
        }
        return ((StringVector) v).getString(r);
    }

}

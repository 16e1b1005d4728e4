package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.StringKey;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.roaringbitmap.RoaringBitmap;

/**
 * Pruning is conservative on stored tables: every block that holds a matching row, found by
 * scanning the data here, is kept. Rows are written in block order (no sort key) so the test
 * controls which block each row lands in: a unique increasing key, columns clustered by block,
 * random low-cardinality columns, all-null blocks, extremes, and strings sharing 8-byte prefixes.
 */
class BlockPrunerPropertyTest {
    private static final Schema SCHEMA = Schema.parse("k:int64,i:int32,d:decimal(15,2),dt:date,s:string");
    private static final int K = 0;
    private static final int S = 4;
    private static final int BLOCK = Block.MAX_ROWS;
    private static final String[] POOL = {"", "a", "ab", "abc", "\u00e9t\u00e9", "\u4e2d\u6587", "\u00ff\u00ff",
        "zzz", "prefix00a", "prefix00b", "prefix00", "\u0000"};

    /** The predicate kinds under test; IN and BETWEEN besides the comparisons. */
    private enum Op { EQ, LT, LE, GT, GE, BETWEEN, IN }

    /** A generated predicate with its constants as values (strings kept as strings for the brute force). */
    private record Case(int column, Op op, long[] numbers, String[] strings) {
        Predicate predicate() {
            final String name = SCHEMA.field(column).name();
            final long[] keys = new long[numbers != null ? numbers.length : strings.length];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = numbers != null ? numbers[i] : StringKey.of(strings[i]);
            }
            return switch (op) {
                case EQ -> Predicate.eq(name, keys[0]);
                case LT -> Predicate.lt(name, keys[0]);
                case LE -> Predicate.le(name, keys[0]);
                case GT -> Predicate.gt(name, keys[0]);
                case GE -> Predicate.ge(name, keys[0]);
                case BETWEEN -> Predicate.between(name, keys[0], keys[1]);
                case IN -> Predicate.in(name, keys);
            };
        }

        @Override
        public String toString() {
            return SCHEMA.field(column).name() + " " + op + " "
                    + (numbers != null ? Arrays.toString(numbers) : Arrays.toString(strings));
        }
    }

    /** What was written, row by row, to draw constants from. */
    private record Written(Long[] k, Integer[] i, Long[] d, Integer[] dt, String[] s) {
    }

    @Property(tries = 12)
    void everyBlockHoldingAMatchIsKept(@ForAll final long seed, @ForAll @IntRange(min = 3, max = 5) final int blocks,
                                       @ForAll @IntRange(min = 0, max = 2) final int stringMode) {
        final Random random = new Random(seed);
        final int rows = (blocks - 1) * BLOCK + 1 + random.nextInt(BLOCK);
        final Path dir = TestData.tempDir();
        try {
            final Written written = generate(random, rows, stringMode);
            try (Table table = write(dir, written)) {
                assertThat(table.blockCount()).isEqualTo(blocks);
                final Block[] data = new Block[blocks];
                for (int b = 0; b < blocks; b++) {
                    data[b] = table.readBlock(b);
                }
                for (int column = 0; column < SCHEMA.size(); column++) {
                    for (final Op op : Op.values()) {
                        for (int t = 0; t < 4; t++) {
                            check(table, data, randomCase(random, written, column, op));
                        }
                    }
                }
            }
        } finally {
            TestData.delete(dir);
        }
    }

    private static void check(final Table table, final Block[] data, final Case c) {
        final RoaringBitmap kept = BlockPruner.prune(c.predicate(), table);
        final RoaringBitmap matching = new RoaringBitmap();
        for (int b = 0; b < data.length; b++) {
            if (blockMatches(data[b].column(c.column()), c)) {
                matching.add(b);
            }
        }
        assertThat(RoaringBitmap.andNot(matching, kept).isEmpty())
                .as("%s: blocks %s hold matches, the pruner kept %s", c, matching, kept).isTrue();
        assertThat(kept.isEmpty() || kept.last() < data.length).as("%s kept %s", c, kept).isTrue();
        final boolean numeric = SCHEMA.type(c.column()).kind() != TypeKind.STRING;
        if (numeric && c.op() != Op.EQ && c.op() != Op.BETWEEN && c.op() != Op.IN) {
            // A block holds a value < x exactly when its min is < x: one-sided comparisons on numbers are exact.
            assertThat(kept).as("%s on numbers must keep exactly the blocks with a match", c).isEqualTo(matching);
        }
        if (c.column() == K && c.op() == Op.EQ) {
            assertThat(kept.getCardinality()).as("%s on the unique increasing key: blocks are disjoint", c)
                    .isLessThanOrEqualTo(1);
        }
    }

    private static boolean blockMatches(final ColumnVector vector, final Case c) {
        for (int r = 0; r < vector.rowCount(); r++) {
            if (vector.isNull(r)) {
                continue;
            }
            final int[] cmp;
            if (vector instanceof StringVector sv) {
                cmp = new int[c.strings().length];
                for (int i = 0; i < cmp.length; i++) {
                    final byte[] constant = c.strings()[i].getBytes(StandardCharsets.UTF_8);
                    cmp[i] = Integer.signum(Arrays.compareUnsigned(sv.bytes(), sv.offset(r), sv.offset(r) + sv.length(r),
                            constant, 0, constant.length));
                }
            } else {
                cmp = new int[c.numbers().length];
                for (int i = 0; i < cmp.length; i++) {
                    cmp[i] = Long.compare(vector.key(r), c.numbers()[i]);
                }
            }
            final boolean match = switch (c.op()) {
                case EQ -> cmp[0] == 0;
                case LT -> cmp[0] < 0;
                case LE -> cmp[0] <= 0;
                case GT -> cmp[0] > 0;
                case GE -> cmp[0] >= 0;
                case BETWEEN -> cmp[0] >= 0 && cmp[1] <= 0;
                case IN -> contains(cmp, 0);
            };
            if (match) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(final int[] values, final int value) {
        for (final int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }

    private static Case randomCase(final Random random, final Written w, final int column, final Op op) {
        final int count = switch (op) {
            case BETWEEN -> 2;
            case IN -> random.nextInt(5);
            default -> 1;
        };
        if (column == S) {
            final String[] strings = new String[count];
            for (int i = 0; i < count; i++) {
                strings[i] = stringConstant(random, w.s());
            }
            return new Case(column, op, null, strings);
        }
        final long[] numbers = new long[count];
        for (int i = 0; i < count; i++) {
            numbers[i] = numberConstant(random, switch (column) {
                case 0 -> w.k();
                case 1 -> w.i();
                case 2 -> w.d();
                default -> w.dt();
            });
        }
        if (op == Op.BETWEEN && random.nextInt(4) != 0) {
            Arrays.sort(numbers);
        }
        return new Case(column, op, numbers, null);
    }

    private static long numberConstant(final Random random, final Number[] values) {
        final int pick = random.nextInt(10);
        if (pick < 6) {
            final Number v = values[random.nextInt(values.length)];
            final long base = v == null ? 0 : v.longValue();
            return pick < 4 ? base : base + (pick == 4 ? -1 : 1);
        }
        final long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE, 0};
        return pick < 8 ? extremes[random.nextInt(extremes.length)] : random.nextLong();
    }

    private static String stringConstant(final Random random, final String[] values) {
        final String v = values[random.nextInt(values.length)];
        final String base = v == null ? "" : v;
        return switch (random.nextInt(8)) {
            case 0, 1 -> base;
            case 2 -> base + "\u0000";
            case 3 -> base + "z";
            case 4 -> base.isEmpty() ? base : base.substring(0, base.length() - 1);
            case 5 -> base.substring(0, Math.min(8, base.length()));
            case 6 -> POOL[random.nextInt(POOL.length)];
            default -> randomString(random);
        };
    }

    private static String randomString(final Random random) {
        final char[] chars = new char[random.nextInt(12)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (random.nextBoolean() ? 'a' + random.nextInt(26) : random.nextInt(0x100));
        }
        return new String(chars);
    }

    private static Written generate(final Random random, final int rows, final int stringMode) {
        final Long[] k = new Long[rows];
        final Integer[] i = new Integer[rows];
        final Long[] d = new Long[rows];
        final Integer[] dt = new Integer[rows];
        final String[] s = new String[rows];
        final long stride = new long[] {1, 2, 1000}[random.nextInt(3)];
        final long[] bases = {Long.MIN_VALUE, -5000, 0, Long.MAX_VALUE - stride * rows - 1};
        final long base = bases[random.nextInt(bases.length)];
        final int nullBlockK = random.nextInt(rows / BLOCK + 2);
        final int nullBlockDt = random.nextInt(rows / BLOCK + 2);
        for (int r = 0; r < rows; r++) {
            final int block = r / BLOCK;
            k[r] = block == nullBlockK || random.nextInt(100) == 0 ? null : base + r * stride + random.nextLong(stride);
            i[r] = random.nextInt(10) == 0 ? null
                    : random.nextInt(1000) == 0 ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE)
                    : random.nextInt(101) - 50;
            d[r] = random.nextInt(20) == 0 ? null
                    : random.nextInt(5000) == 0 ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                    : block * 1_000_000L - 500_000 + random.nextInt(1_000_000);
            dt[r] = block == nullBlockDt ? null : r / 64 + random.nextInt(200);
            s[r] = switch (stringMode) {
                case 0 -> letters(r / 5);
                case 1 -> "prefix00" + (r / 7);
                default -> random.nextInt(10) == 0 ? null
                        : random.nextBoolean() ? POOL[random.nextInt(POOL.length)] : randomString(random);
            };
        }
        return new Written(k, i, d, dt, s);
    }

    /** Four lowercase letters in increasing order of {@code n}, so strings cluster by block with distinct prefixes. */
    private static String letters(final int n) {
        final char[] chars = new char[4];
        int x = n;
        for (int p = 3; p >= 0; p--) {
            chars[p] = (char) ('a' + x % 26);
            x /= 26;
        }
        return new String(chars);
    }

    private static Table write(final Path dir, final Written w) {
        try (TableWriter writer = Store.create(dir).createTable("t", SCHEMA, null)) {
            for (int r = 0; r < w.k().length; r++) {
                if (w.k()[r] == null) writer.column(0).appendNull(); else writer.column(0).appendLong(w.k()[r]);
                if (w.i()[r] == null) writer.column(1).appendNull(); else writer.column(1).appendInt(w.i()[r]);
                if (w.d()[r] == null) writer.column(2).appendNull(); else writer.column(2).appendLong(w.d()[r]);
                if (w.dt()[r] == null) writer.column(3).appendNull(); else writer.column(3).appendInt(w.dt()[r]);
                if (w.s()[r] == null) writer.column(4).appendNull(); else writer.column(4).appendString(w.s()[r]);
                writer.endRow();
            }
            return writer.finish();
        }
    }
}

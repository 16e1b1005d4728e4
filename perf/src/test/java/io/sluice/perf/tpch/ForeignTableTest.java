package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.Vectors;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.storage.Table;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Storage Sluice does not own, through the storage SPI: the SF 0.01 TPC-H rows held in memory by two
 * {@link BlockTable}s of this test, one of column vectors on the heap and one of encoded blocks in
 * direct (off-heap) buffers, both cut into blocks of {@value #FOREIGN_BLOCK_ROWS} rows (not the
 * store's 8192), with zonemaps computed from those blocks. Every registered query, planned and run
 * over them by {@link QueryRunner}, returns what DuckDB returns over the same rows imported into
 * Sluice's store.
 */
class ForeignTableTest {
    private static final int FOREIGN_BLOCK_ROWS = 5000;

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Catalog onHeap;
    private static Catalog offHeap;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        final Map<String, BlockTable> heapTables = new HashMap<>();
        final Map<String, BlockTable> directTables = new HashMap<>();
        for (final TpchTable t : TpchTable.values()) {
            final HeapTable heap = HeapTable.copyOf(oracle.catalog().table(t.tableName()), FOREIGN_BLOCK_ROWS);
            heapTables.put(t.tableName(), heap);
            directTables.put(t.tableName(), DirectTable.encode(heap));
        }
        onHeap = catalogOf(heapTables);
        offHeap = catalogOf(directTables);
    }

    @AfterAll
    static void close() throws Exception {
        if (oracle != null) {
            oracle.close();
        }
    }

    private static Catalog catalogOf(final Map<String, BlockTable> tables) {
        return name -> {
            final BlockTable table = tables.get(name);
            if (table == null) {
                throw new StorageException("no foreign table '" + name + "'");
            }
            return table;
        };
    }

    static Stream<Arguments> queriesStrategiesAndStorage() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Query q : Queries.all()) {
            for (final Strategy strategy : new Strategy[] {Strategy.AUTO, Strategy.COLOCATE, Strategy.SHUFFLE_HASH}) {
                cases.add(Arguments.of(q.name(), strategy, "heap"));
                cases.add(Arguments.of(q.name(), strategy, "off-heap"));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} over {2} blocks")
    @MethodSource("queriesStrategiesAndStorage")
    void sameResultAsDuckDbOverTheStoredRows(final String name, final Strategy strategy, final String storage)
            throws Exception {
        final Query query = TpchOracle.query(name);
        final Catalog catalog = storage.equals("heap") ? onHeap : offHeap;
        try (QueryRunner runner = new QueryRunner(catalog, 2, StrategyConfig.defaults().withStrategy(strategy))) {
            oracle.assertSameAsDuckDb(query, runner.run(query.plan()));
        }
    }

    @Test
    void theForeignTablesHoldTheStoredRowsInOtherBlocks() {
        final Table stored = oracle.catalog().table("lineitem");
        final BlockTable heap = onHeap.table("lineitem");
        final BlockTable direct = offHeap.table("lineitem");
        assertThat(heap.rowCount()).isEqualTo(stored.rowCount()).isEqualTo(direct.rowCount());
        assertThat(heap.blockCount()).isEqualTo((int) ((stored.rowCount() + FOREIGN_BLOCK_ROWS - 1) / FOREIGN_BLOCK_ROWS))
                .isNotEqualTo(stored.blockCount());
        final int orderkey = stored.schema().indexOf("l_orderkey");
        for (int b = 0; b < heap.blockCount(); b++) {
            assertThat(direct.zoneMap(b, orderkey)).isEqualTo(heap.zoneMap(b, orderkey));
            assertThat(direct.readBlock(b, orderkey).zoneMaps()[0]).isEqualTo(heap.zoneMap(b, orderkey));
        }
    }

    /** A table of column vectors on the heap. */
    private static final class HeapTable implements BlockTable {
        private final String name;
        private final Schema schema;
        private final String sortKey;
        private final List<Block> blocks;

        private HeapTable(final String name, final Schema schema, final String sortKey, final List<Block> blocks) {
            this.name = name;
            this.schema = schema;
            this.sortKey = sortKey;
            this.blocks = blocks;
        }

        /** The rows of {@code source}, in order, cut into blocks of {@code rowsPerBlock}. */
        static HeapTable copyOf(final BlockTable source, final int rowsPerBlock) {
            final Schema schema = source.schema();
            final ColumnVector[] whole = new ColumnVector[schema.size()];
            for (int c = 0; c < whole.length; c++) {
                final List<ColumnVector> parts = new ArrayList<>();
                for (int b = 0; b < source.blockCount(); b++) {
                    parts.add(source.readBlock(b, c).column(0));
                }
                whole[c] = Vectors.concat(parts, schema.type(c));
            }
            final List<Block> blocks = new ArrayList<>();
            final int rows = (int) source.rowCount();
            for (int from = 0; from < rows; from += rowsPerBlock) {
                final int to = Math.min(rows, from + rowsPerBlock);
                final ColumnVector[] columns = new ColumnVector[whole.length];
                for (int c = 0; c < columns.length; c++) {
                    columns[c] = Vectors.slice(whole[c], from, to);
                }
                blocks.add(Block.of(columns));
            }
            return new HeapTable(source.name(), schema, source.sortKey(), blocks);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public String sortKey() {
            return sortKey;
        }

        @Override
        public int blockCount() {
            return blocks.size();
        }

        @Override
        public int blockRowCount(final int block) {
            return blocks.get(block).rowCount();
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            return blocks.get(block).zoneMaps()[column];
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            return blocks.get(block).project(projection);
        }
    }

    /** A table of blocks in Sluice's block layout in direct buffers, decoded (and checked) on every read. */
    private static final class DirectTable implements BlockTable {
        private final HeapTable shape;
        private final List<UnsafeBuffer> encoded;

        private DirectTable(final HeapTable shape, final List<UnsafeBuffer> encoded) {
            this.shape = shape;
            this.encoded = encoded;
        }

        static DirectTable encode(final HeapTable heap) {
            final List<UnsafeBuffer> encoded = new ArrayList<>();
            final BlockEncoder encoder = new BlockEncoder();
            for (final Block block : heap.blocks) {
                final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(encoder.prepare(block)));
                encoder.writeTo(buffer, 0);
                encoded.add(buffer);
            }
            return new DirectTable(heap, encoded);
        }

        private <T> T decoded(final int block, final Function<BlockDecoder, T> read) {
            final UnsafeBuffer buffer = encoded.get(block);
            return read.apply(new BlockDecoder().wrap(buffer, 0, buffer.capacity(), shape.name + " (off-heap)", block));
        }

        @Override
        public String name() {
            return shape.name;
        }

        @Override
        public Schema schema() {
            return shape.schema;
        }

        @Override
        public String sortKey() {
            return shape.sortKey;
        }

        @Override
        public int blockCount() {
            return encoded.size();
        }

        @Override
        public int blockRowCount(final int block) {
            return decoded(block, BlockDecoder::rowCount);
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            return decoded(block, d -> d.zoneMap(column));
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            return decoded(block, d -> d.decode(shape.schema, projection.length == 0 ? null : projection));
        }
    }
}

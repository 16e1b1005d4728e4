package io.sluice.engine.plan;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.util.List;

/**
 * A table of zonemaps only, for planner tests: {@code blocks} full blocks of key {@code k<name>} (block {@code b}
 * holds keys {@code [b * 8192, (b + 1) * 8192)}) and a value column {@code <name>_v}, stored in key order or not.
 */
record ZonemapOnlyTable(String name, int blocks, boolean sortedByKey) implements BlockTable {
    static final int BLOCK_ROWS = Block.MAX_ROWS;

    @Override
    public Schema schema() {
        return new Schema(List.of(new Field("k" + name, ColumnType.INT64), new Field(name + "_v", ColumnType.INT64)));
    }

    @Override
    public int blockCount() {
        return blocks;
    }

    @Override
    public int blockRowCount(final int block) {
        return BLOCK_ROWS;
    }

    @Override
    public ZoneMap zoneMap(final int block, final int column) {
        return new ZoneMap((long) block * BLOCK_ROWS, (long) (block + 1) * BLOCK_ROWS - 1, 0, BLOCK_ROWS);
    }

    @Override
    public Block readBlock(final int block, final int... projection) {
        throw new UnsupportedOperationException("planning reads zonemaps only");
    }

    @Override
    public String sortKey() {
        return sortedByKey ? "k" + name : null;
    }
}

package io.sluice.perf.cli;

import io.sluice.format.Block;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Table;
import io.sluice.storage.ZoneMapIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads every block of a table, which verifies each header and column checksum, and checks that
 * each block agrees with the table's zonemap index. Problems are collected, not thrown, so one run
 * lists every damaged or missing block.
 */
final class TableVerifier {
    /** The outcome for one table: blocks read and one message per damaged block. */
    record Report(int blocks, List<String> problems) {
        Report {
            problems = List.copyOf(problems);
        }

        /** Whether every block verified. */
        boolean ok() {
            return problems.isEmpty();
        }
    }

    private TableVerifier() {
    }

    /** Checks only that every block's file is there (one directory listing, no block read). */
    static Report presence(final Table table) {
        final List<String> problems = new ArrayList<>();
        for (final int b : table.missingBlocks()) {
            problems.add(missing(table, b));
        }
        return new Report(0, problems);
    }

    /** Verifies all blocks of a table. */
    static Report verify(final Table table) {
        final List<String> problems = new ArrayList<>();
        final Set<Integer> missing = new HashSet<>(table.missingBlocks());
        for (int b = 0; b < table.blockCount(); b++) {
            if (missing.contains(b)) {
                problems.add(missing(table, b));
                continue;
            }
            try {
                final Block block = table.readBlock(b);
                for (int c = 0; c < block.columns().length; c++) {
                    final ZoneMap inFile = block.zoneMaps()[c];
                    final ZoneMap inIndex = table.zoneMap(b, c);
                    if (!inFile.equals(inIndex)) {
                        problems.add("block " + b + " of table '" + table.name() + "' (" + table.blockPath(b)
                                + "): the zonemap of column '" + table.schema().field(c).name() + "' is " + inFile
                                + " in the block file but " + inIndex + " in "
                                + table.dataDir().resolve(ZoneMapIndex.FILE) + "; regenerate or re-import the table");
                        break;
                    }
                }
            } catch (final StorageException e) {
                problems.add(e.getMessage());
            }
        }
        return new Report(table.blockCount(), problems);
    }

    private static String missing(final Table table, final int block) {
        return "block " + block + " of " + table.blockCount() + " of table '" + table.name() + "' is missing: no file "
                + table.blockPath(block) + "; regenerate or re-import the table";
    }
}

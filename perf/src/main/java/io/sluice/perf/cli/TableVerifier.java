package io.sluice.perf.cli;

import io.sluice.format.Block;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import io.sluice.s3.S3Store;
import io.sluice.storage.Table;
import io.sluice.storage.ZoneMapIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

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

    /**
     * Where a table's block files are: which are missing, and how to name one.
     *
     * @param kind    what a block's file is: "file", or "object"
     * @param missing the blocks whose files are missing
     * @param where   a block's file as messages name it
     */
    record BlockFiles(String kind, Function<Table, List<Integer>> missing, BiFunction<Table, Integer, String> where) {
        /** A local store's: files in the table's version directory. */
        static final BlockFiles LOCAL = new BlockFiles("file", Table::missingBlocks,
                (t, b) -> t.blockPath(b).toString());

        /** A store on object storage's: objects, listed on the server. */
        static BlockFiles of(final S3Store s3) {
            return new BlockFiles("object", s3::missingBlocks, s3::blockUri);
        }
    }

    private TableVerifier() {
    }

    /** Checks only that every block's file is there (one directory listing, no block read). */
    static Report presence(final Table table) {
        return presence(table, BlockFiles.LOCAL);
    }

    /** Checks only that every block's file is where {@code files} says (no block read). */
    static Report presence(final Table table, final BlockFiles files) {
        final List<String> problems = new ArrayList<>();
        for (final int b : files.missing().apply(table)) {
            problems.add(missing(table, b, files));
        }
        return new Report(0, problems);
    }

    /** Verifies all blocks of a table. */
    static Report verify(final Table table) {
        return verify(table, BlockFiles.LOCAL);
    }

    /** Verifies all blocks of a table whose files are where {@code files} says. */
    static Report verify(final Table table, final BlockFiles files) {
        final List<String> problems = new ArrayList<>();
        final Set<Integer> missing = new HashSet<>(files.missing().apply(table));
        for (int b = 0; b < table.blockCount(); b++) {
            if (missing.contains(b)) {
                problems.add(missing(table, b, files));
                continue;
            }
            try {
                final Block block = table.readBlock(b);
                for (int c = 0; c < block.columns().length; c++) {
                    final ZoneMap inFile = block.zoneMaps()[c];
                    final ZoneMap inIndex = table.zoneMap(b, c);
                    if (!inFile.equals(inIndex)) {
                        problems.add("block " + b + " of table '" + table.name() + "' (" + files.where().apply(table, b)
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

    private static String missing(final Table table, final int block, final BlockFiles files) {
        return "block " + block + " of " + table.blockCount() + " of table '" + table.name() + "' is missing: no "
                + files.kind() + " " + files.where().apply(table, block) + "; regenerate or re-import the table";
    }
}

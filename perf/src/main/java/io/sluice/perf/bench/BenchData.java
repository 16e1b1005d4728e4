package io.sluice.perf.bench;

import io.sluice.perf.tpch.TpchScale;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where {@code sluice bench} keeps its TPC-H data: one store per scale factor, by default
 * {@code data/sf<scale>} under the working directory (the store {@code sluice gen --sf <scale>
 * --out data/sf<scale>} writes, so either command reuses the other's tables). Tables a run needs
 * and the store lacks are generated into it; tables it has are checked to be of the requested
 * scale ({@link TpchScale}), so a store of another scale is never benchmarked under the wrong name.
 */
public final class BenchData {
    private BenchData() {
    }

    /** The default store of a scale factor: {@code data/sf0.1} for 0.1. */
    public static Path defaultDir(final double scaleFactor) {
        return Path.of("data", "sf" + BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString());
    }

    /**
     * The tables to generate before the benchmark can run: those of {@code tables} that the store
     * in {@code dir} lacks (all of them when {@code dir} does not exist yet).
     *
     * @throws IllegalArgumentException when {@code dir} is not a directory, or holds one of the
     *                                  tables with a row count of another scale factor
     */
    public static List<TpchTable> missing(final Path dir, final double scaleFactor, final List<String> tables) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--data " + dir + " exists and is not a directory: choose a directory"
                    + " for the TPC-H store");
        }
        final List<TpchTable> missing = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            for (final String name : tables) {
                missing.add(TpchTable.of(name));
            }
            return missing;
        }
        final Store store = Store.open(dir);
        for (final String name : tables) {
            final TpchTable table = TpchTable.of(name);
            if (!store.hasTable(name)) {
                missing.add(table);
                continue;
            }
            final Optional<TpchScale.Of> scale;
            try (Table t = store.table(name)) {
                scale = TpchScale.of(t);
            }
            if (scale.isPresent() && !scale.get().is(scaleFactor)) {
                throw new IllegalArgumentException("--data " + dir + " holds table " + name + " at " + scale.get()
                        + ", not SF " + TpchScale.format(scaleFactor) + ": it is a store of another scale; point --data"
                        + " at another directory (the default is data/sf<scale>)");
            }
        }
        return missing;
    }
}

package io.sluice.perf.bench;

import io.sluice.perf.tpch.TpchScale;
import io.sluice.perf.tpch.TpchSkew;
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
     * The default store of a scale factor and a skew: {@code data/sf0.1-skew1.5} for 0.1 and Z = 1.5 (the store
     * {@code sluice gen --sf 0.1 --skew 1.5 --out data/sf0.1-skew1.5} writes), or {@link #defaultDir(double)}
     * when {@code skew} is null.
     */
    public static Path defaultDir(final double scaleFactor, final TpchSkew skew) {
        final Path uniform = defaultDir(scaleFactor);
        return skew == null ? uniform : uniform.resolveSibling(uniform.getFileName() + "-skew" + skew.format());
    }

    /**
     * As {@link #missing(Path, double, List)}, also refusing a store whose orders or lineitem were generated with
     * another skew than {@code skew} (null: uniform), so that skewed data is never benchmarked as uniform.
     */
    public static List<TpchTable> missing(final Path dir, final double scaleFactor, final TpchSkew skew,
                                          final List<String> tables) {
        final List<TpchTable> missing = missing(dir, scaleFactor, tables);
        if (!Files.isDirectory(dir)) {
            return missing;
        }
        final Store store = Store.open(dir);
        final String wanted = skew == null ? null : skew.format();
        for (final String name : tables) {
            if (!store.hasTable(name) || !TpchSkew.rewrites(TpchTable.of(name))) {
                continue;
            }
            final String recorded;
            try (Table t = store.table(name)) {
                recorded = t.manifest().attributes().get(TpchSkew.ATTRIBUTE);
            }
            if (!java.util.Objects.equals(recorded, wanted)) {
                throw new IllegalArgumentException("--data " + dir + " holds table " + name + " generated "
                        + (recorded == null ? "uniform" : "with --skew " + recorded) + ", not "
                        + (wanted == null ? "uniform" : "with --skew " + wanted) + ": point --data at another directory"
                        + " (the default is " + defaultDir(scaleFactor, skew) + ")");
            }
        }
        return missing;
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

package io.sluice.perf.cli;

import io.sluice.shuffle.BoundaryConfig;
import io.sluice.shuffle.StraddlePolicy;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Table;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice boundaries}: the range-shuffle plan for one key column of a stored table and a
 * topology, from zonemaps, checked against one scan of the column.
 */
@Command(name = "boundaries", mixinStandardHelpOptions = true,
        description = {"Shows how a key column would be range-shuffled over CNs x cores: the method chosen"
            + " (range-uniform, range-quantile, or hash and why), the cut points, rows per bucket estimated"
            + " from zonemaps and counted by a scan, uniformity, block overlap, and the fraction of rows a"
            + " colocated scan would send across CNs and the rows it would read more than once."})
public final class BoundariesCommand extends CliCommand {
    @Option(names = "--store", required = true, paramLabel = "DIR",
            description = "Store directory, or s3://BUCKET/PREFIX on object storage (docs/object-storage.md).")
    Path store;

    @Mixin
    ObjectStoreOptions objectStore;

    @Option(names = "--table", required = true, paramLabel = "T", description = "Table name.")
    String table;

    @Option(names = "--column", required = true, paramLabel = "C", description = "Shuffle key column.")
    String column;

    @Option(names = "--topology", required = true, paramLabel = "CxK",
            description = "CNs x cores per CN, e.g. 3x2 (6 buckets).")
    String topology;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--uniformity-threshold", paramLabel = "U", defaultValue = "" + BoundaryConfig.DEFAULT_UNIFORMITY_THRESHOLD,
            description = "Uniformity at or above which ranges are equal-width (default: ${DEFAULT-VALUE}).")
    double uniformityThreshold;

    @Option(names = "--straddle", paramLabel = "POLICY", defaultValue = "majority", converter = StraddleConverter.class,
            description = {"What the colocated scan does with a block that straddles CN ranges: majority (read once,"
                + " by the CN holding most of its rows; the rest crosses CNs) or split (read by every CN it"
                + " overlaps, each keeping its own rows; nothing crosses, some rows are read more than once)."
                + " Default: ${DEFAULT-VALUE}."})
    StraddlePolicy straddle;

    @Option(names = "--no-sketch", description = "Plan from the zonemaps alone, as for a table without a sketch"
            + " (to see what the sketch changes).")
    boolean noSketch;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final Topology shape = parseTopology(topology);
        final BoundaryConfig config = BoundaryConfig.DEFAULT.withUniformityThreshold(uniformityThreshold);
        try (ObjectStoreOptions.Opened opened = objectStore.open(store); Table t = opened.store().table(table)) {
            final BoundariesReport report = BoundariesReport.of(t, column, shape, config, straddle, !noSketch);
            out.print(json ? report.json() : report.text());
        }
        return 0;
    }

    private static Topology parseTopology(final String text) {
        try {
            return Topology.parse(text);
        } catch (final IllegalArgumentException e) {
            if (e.getMessage().contains("'" + text + "'")) {
                throw e;
            }
            throw new IllegalArgumentException("topology '" + text + "' is not valid: " + e.getMessage(), e);
        }
    }
}

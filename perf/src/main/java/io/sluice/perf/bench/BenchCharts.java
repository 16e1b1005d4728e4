package io.sluice.perf.bench;

import io.sluice.engine.plan.Strategy;
import io.sluice.perf.text.Plural;
import io.sluice.shuffle.Topology;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.AbstractRenderer;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.BoxAndWhiskerRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.BoxAndWhiskerItem;
import org.jfree.data.statistics.DefaultBoxAndWhiskerCategoryDataset;

/**
 * The PNG charts of {@code sluice bench} (JFreeChart, drawn headless): per topology, the time of
 * each query under each strategy next to DuckDB, median and spread on a log scale
 * ({@code time-<topology>.png}); per
 * multi-CN topology, the MiB each strategy moved across CNs ({@code bytes-<topology>.png}); and
 * how the total time and bytes of all queries change with the topology ({@code scaling.png}).
 * A failed cell leaves a gap.
 */
public final class BenchCharts {
    private static final int WIDTH = 1100;
    private static final int HEIGHT = 560;
    private static final Color DUCKDB_COLOR = new Color(0x55, 0x55, 0x55);
    /** One color per strategy, by ordinal, the same in every chart. */
    private static final Color[] STRATEGY_COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x2ca02c), new Color(0x8c564b)};
    private static final double MIB = 1024.0 * 1024.0;

    /** One marker shape per strategy, by ordinal, so both halves of the scaling chart match its legend. */
    private static final Shape[] SHAPES = DefaultDrawingSupplier.createStandardSeriesShapes();

    private BenchCharts() {
    }

    /** Writes every chart into a directory; returns the files written. */
    public static List<Path> write(final BenchReport report, final Path dir) throws IOException {
        // AWT reads this once, on first use: charts need no display.
        System.setProperty("java.awt.headless", "true");
        final List<Path> written = new ArrayList<>();
        for (final ClusterKind k : report.spec().clusters()) {
            final String suffix = k == ClusterKind.EMBEDDED ? "" : "-" + k.cliName();
            for (final Topology t : report.spec().topologies()) {
                written.add(save(timeChart(report, k, t), dir.resolve("time-" + t + suffix + ".png"), WIDTH, HEIGHT));
            }
            for (final Topology t : report.multiCnTopologies()) {
                written.add(save(bytesChart(report, k, t), dir.resolve("bytes-" + t + suffix + ".png"), WIDTH,
                        HEIGHT));
            }
        }
        written.add(save(scalingChart(report), dir.resolve("scaling.png"), WIDTH, 2 * HEIGHT - 80));
        return written;
    }

    /**
     * The time of each query (x) under each strategy and in DuckDB on one cluster and topology, on a
     * logarithmic axis (one slow query must not flatten the rest): per series a box from the fastest
     * to the slowest timed run with a line at the median.
     */
    static JFreeChart timeChart(final BenchReport report, final ClusterKind cluster, final Topology topology) {
        final DefaultBoxAndWhiskerCategoryDataset data = new DefaultBoxAndWhiskerCategoryDataset();
        final BenchSpec spec = report.spec();
        for (final Strategy s : spec.strategies()) {
            for (int q = 0; q < spec.queries().size(); q++) {
                final String query = spec.queries().get(q).name();
                final CellResult c = report.cell(query, cluster, topology, s);
                // A cell whose every run failed has no box; the summary names its error.
                if (c != null && c.sluice() != null) {
                    data.add(spread(c.sluice()), s.cliName(), query);
                }
            }
        }
        if (spec.vsDuckDb()) {
            for (int q = 0; q < spec.queries().size(); q++) {
                final String query = spec.queries().get(q).name();
                final CellResult c = report.cell(query, cluster, topology, spec.strategies().get(0));
                if (c != null && c.duckDb() != null) {
                    data.add(spread(c.duckDb()), BenchReport.DUCKDB, query);
                }
            }
        }
        final BoxAndWhiskerRenderer renderer = new BoxAndWhiskerRenderer();
        renderer.setMeanVisible(false);
        renderer.setMedianVisible(true);
        renderer.setFillBox(true);
        renderer.setMaxOutlierVisible(false);
        renderer.setMinOutlierVisible(false);
        renderer.setItemMargin(0.02);
        renderer.setDefaultOutlinePaint(Color.BLACK);
        renderer.setUseOutlinePaintForWhiskers(true);
        paint(renderer, data);
        final LogAxis axis = logAxis("milliseconds, log scale (box: fastest to slowest of "
                + Plural.of(spec.runs(), "run") + ", line: median)");
        final CategoryAxis queries = new CategoryAxis("query");
        queries.setCategoryMargin(0.15);
        queries.setMaximumCategoryLabelWidthRatio(1.6f);
        final CategoryPlot plot = new CategoryPlot(data, queries, axis, renderer);
        final JFreeChart chart = new JFreeChart("Time per query and strategy on " + report.shapeName(cluster, topology)
                + " (CNs x cores), SF " + report.scale(), JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        style(chart);
        return chart;
    }

    /** A time axis on a log scale with a tick at every power of two, labelled in plain numbers (1, 2, 4, 8, ...). */
    private static LogAxis logAxis(final String label) {
        final LogAxis axis = new LogAxis(label);
        axis.setSmallestValue(0.01);
        axis.setTickUnit(new NumberTickUnit(Math.log10(2)), false, true);
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.##", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        axis.setMinorTickMarksVisible(false);
        return axis;
    }

    /** A box from the fastest to the slowest run around the median; null for a cell without timings. */
    private static BoxAndWhiskerItem spread(final Timings t) {
        return new BoxAndWhiskerItem(t.medianMs(), t.medianMs(), t.minMs(), t.maxMs(), t.minMs(),
                t.maxMs(), null, null, null);
    }

    /** MiB crossing CNs of each query (x) under each strategy (bars) on one cluster and topology. */
    static JFreeChart bytesChart(final BenchReport report, final ClusterKind cluster, final Topology topology) {
        final DefaultCategoryDataset data = new DefaultCategoryDataset();
        final BenchSpec spec = report.spec();
        for (final Strategy s : spec.strategies()) {
            for (int q = 0; q < spec.queries().size(); q++) {
                final String query = spec.queries().get(q).name();
                final CellResult c = report.cell(query, cluster, topology, s);
                data.addValue(c == null || c.sluice() == null ? null : c.bytesRemote() / MIB, s.cliName(), query);
            }
        }
        return bars("Bytes crossing CNs through Aeron per query and strategy on " + report.shapeName(cluster, topology)
                + ", SF "
                + report.scale(), "MiB across CNs", data);
    }

    /**
     * Total median ms and total MiB across CNs of all queries per strategy, over the topologies by CN
     * count, on the first cluster the run names.
     */
    static JFreeChart scalingChart(final BenchReport report) {
        final DefaultCategoryDataset time = new DefaultCategoryDataset();
        final DefaultCategoryDataset bytes = new DefaultCategoryDataset();
        final BenchSpec spec = report.spec();
        final ClusterKind cluster = spec.clusters().get(0);
        for (final Strategy s : spec.strategies()) {
            for (final Topology t : report.topologiesByCnCount()) {
                double ms = 0;
                long moved = 0;
                boolean complete = true;
                for (int q = 0; q < spec.queries().size(); q++) {
                    final CellResult c = report.cell(spec.queries().get(q).name(), cluster, t, s);
                    if (c == null || c.sluice() == null) {
                        complete = false;
                    } else {
                        ms += c.sluice().medianMs();
                        moved += c.bytesRemote();
                    }
                }
                time.addValue(complete ? ms : null, s.cliName(), t.toString());
                bytes.addValue(complete ? moved / MIB : null, s.cliName(), t.toString());
            }
        }
        if (spec.vsDuckDb()) {
            for (final Topology t : report.topologiesByCnCount()) {
                double ms = 0;
                for (int q = 0; q < spec.queries().size(); q++) {
                    final CellResult c = report.cell(spec.queries().get(q).name(), cluster, t, spec.strategies().get(0));
                    ms += c == null || c.duckDb() == null ? 0 : c.duckDb().medianMs();
                }
                time.addValue(ms, BenchReport.DUCKDB, t.toString());
            }
        }
        final CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(
                new CategoryAxis("topology (CNs x cores), ordered by CN count"));
        plot.setGap(12);
        plot.add(lines(time, logAxis("sum of median ms over " + Plural.of(spec.queries().size(), "query") + ", log scale"), true), 1);
        final NumberAxis mib = new NumberAxis("sum of MiB across CNs");
        mib.setAutoRangeIncludesZero(true);
        plot.add(lines(bytes, mib, false), 1);
        final JFreeChart chart = new JFreeChart("Time and bytes crossing CNs as the cluster grows, SF "
                + report.scale(), JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        style(chart);
        return chart;
    }

    private static JFreeChart bars(final String title, final String valueLabel, final DefaultCategoryDataset data) {
        final JFreeChart chart = ChartFactory.createBarChart(title, "query", valueLabel, data,
                PlotOrientation.VERTICAL, true, false, false);
        final CategoryPlot plot = (CategoryPlot) chart.getPlot();
        final BarRenderer renderer = (BarRenderer) plot.getRenderer();
        paint(renderer, data);
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0.02);
        plot.getDomainAxis().setCategoryMargin(0.15);
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(1.6f);
        style(chart);
        return chart;
    }

    /** A line subplot; only the one with {@code inLegend} adds its series to the chart's legend. */
    private static CategoryPlot lines(final DefaultCategoryDataset data, final ValueAxis axis, final boolean inLegend) {
        final LineAndShapeRenderer renderer = new LineAndShapeRenderer(true, true);
        for (int series = 0; series < data.getRowCount(); series++) {
            renderer.setSeriesStroke(series, new BasicStroke(2f));
            final String name = data.getRowKey(series).toString();
            final int index = name.equals(BenchReport.DUCKDB) ? Strategy.values().length : Strategy.parse(name).ordinal();
            renderer.setSeriesShape(series, SHAPES[index % SHAPES.length]);
        }
        paint(renderer, data);
        renderer.setDefaultSeriesVisibleInLegend(inLegend);
        final CategoryPlot plot = new CategoryPlot(data, null, axis, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }

    /** Colors each series by its strategy (DuckDB gray), so a strategy has one color in every chart. */
    private static void paint(final AbstractRenderer renderer, final CategoryDataset data) {
        for (int series = 0; series < data.getRowCount(); series++) {
            final String name = data.getRowKey(series).toString();
            renderer.setSeriesPaint(series, name.equals(BenchReport.DUCKDB) ? DUCKDB_COLOR
                    : STRATEGY_COLORS[Strategy.parse(name).ordinal() % STRATEGY_COLORS.length]);
        }
    }

    private static void style(final JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        final TextTitle title = chart.getTitle();
        title.setFont(title.getFont().deriveFont(15f));
        if (chart.getPlot() instanceof CategoryPlot plot) {
            plot.setBackgroundPaint(Color.WHITE);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        }
    }

    private static Path save(final JFreeChart chart, final Path file, final int width, final int height)
            throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
        return file;
    }
}

package io.sluice.perf.store;

import static io.sluice.engine.expr.Expr.col;

import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.storage.BlockFileCache;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.nio.file.Path;
import java.util.List;

/**
 * A child JVM for {@link ManyBlocksTest}: runs {@code select count(*), sum(k) from TABLE} over a
 * store on 2 worker threads and prints {@code rows=... sum=...}, or the failure and exit code 1.
 */
public final class ScanMain {
    private ScanMain() {
    }

    public static void main(final String[] args) {
        System.setProperty("chronicle.analytics.disable", "true");
        final Store store = Store.open(Path.of(args[0]));
        System.out.println("cache capacity " + BlockFileCache.shared().capacity());
        final Plan plan = Plan.scan(args[1], "k").aggregate(Plan.noKeys(), Plan.count("rows"), Plan.sum(col("k"), "sum"));
        try (StoreCatalog catalog = new StoreCatalog(store); QueryRunner runner = new QueryRunner(catalog, 2)) {
            final List<Object> row = runner.execute(plan).result().rows().get(0);
            System.out.println("rows=" + row.get(0) + " sum=" + row.get(1) + " opened="
                    + BlockFileCache.shared().filesOpened());
        } catch (final RuntimeException e) {
            System.out.println("failed: " + e);
            System.exit(1);
        }
    }
}

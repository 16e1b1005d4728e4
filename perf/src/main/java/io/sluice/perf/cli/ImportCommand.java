package io.sluice.perf.cli;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.perf.csv.CsvImporter;
import io.sluice.storage.Store;
import io.sluice.storage.StoreLock;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice import}: loads a CSV file into a new table of a store. */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Imports a UTF-8 CSV file (RFC 4180) into a new table.",
            "The first line is a header naming the columns: each name is matched to a --schema column ignoring"
                    + " case, in any order, and every schema column must be named once (--no-header: the file has"
                    + " no header and its fields are in schema order). Each field is parsed by its column's type:"
                    + " int64, int32 (range-checked), decimal(p,s) (exact; at most s fractional and p-s integer"
                    + " digits), date (yyyy-mm-dd) or string.",
            "An empty unquoted field is NULL; a quoted empty field (\"\") is the empty string.",
            "The first bad record stops the import with its line number; no table is created then, and neither"
                    + " when SIGINT or SIGTERM stops it. Holds the store's lock while it writes."},
        footer = {"", "Example:", "  sluice import --csv sales.csv --store data/mine --table sales \\",
            "      --schema \"k:int64,v:decimal(15,2),d:date,s:string\" --sort-by k"})
final class ImportCommand extends CliCommand {
    @Option(names = "--csv", required = true, paramLabel = "<file>", description = "CSV file to import")
    Path csv;

    @Option(names = "--store", required = true, paramLabel = "<dir>", description = "store directory (created if missing)")
    Path store;

    @Option(names = "--table", required = true, paramLabel = "<name>", description = "name of the new table")
    String table;

    @Option(names = "--schema", required = true, paramLabel = "<schema>",
            description = "columns as name:type,... with types int64, int32, decimal(p,s), date, string")
    String schema;

    @Option(names = "--sort-by", paramLabel = "<column>",
            description = "store rows sorted by this column (rows are then held in memory until the end)")
    String sortBy;

    @Option(names = "--no-header", description = "the file has no header line: its fields are in --schema order")
    boolean noHeader;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final Schema parsed = parseSchema();
        if (sortBy != null && parsed.indexOf(sortBy) < 0) {
            throw new IllegalArgumentException("--sort-by " + sortBy + " is not a column of the schema; columns are "
                    + parsed.names());
        }
        if (!Files.isRegularFile(csv)) {
            throw new StorageException("CSV file " + csv + " does not exist or is not a regular file");
        }
        final TableSpec spec = TableSpec.of(table, parsed).withSortKey(sortBy);
        final long start = System.nanoTime();
        final Store opened = Store.create(store);
        try (StopOnSignal signal = new StopOnSignal()) {
            final int code;
            try (StoreLock ignored = lock(opened, err)) {
                code = importFile(opened, spec, signal, start, out, err);
            }
            out.flush();
            err.flush();
            return code;
        }
    }

    private int importFile(final Store opened, final TableSpec spec, final StopOnSignal signal, final long start,
                           final PrintWriter out, final PrintWriter err) {
        try (Table imported = CsvImporter.importFile(opened, csv, spec, !noHeader, rows -> signal.check())) {
            out.printf(Locale.ROOT, "imported %d rows into table %s of store %s: %d blocks, %s%s in %.1f s%n",
                    imported.rowCount(), imported.name(), store, imported.blockCount(), Sizes.bytes(imported.bytes()),
                    sortBy == null ? "" : ", sorted by " + sortBy, (System.nanoTime() - start) / 1e9);
            return 0;
        } catch (final CancellationException e) {
            return fail(err, "stopped by a signal: removed the unfinished table " + table + "; the store " + store
                    + " keeps its tables " + opened.tableNames());
        }
    }

    private Schema parseSchema() {
        try {
            return Schema.parse(schema);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("--schema is not valid: " + e.getMessage());
        }
    }
}

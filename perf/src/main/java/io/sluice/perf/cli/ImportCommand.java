package io.sluice.perf.cli;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.perf.csv.CsvImporter;
import io.sluice.perf.text.Plural;
import io.sluice.storage.Store;
import io.sluice.storage.StoreContents;
import io.sluice.storage.StoreLock;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice import}: loads a CSV file into a new table of a store, or replaces one. */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Imports a UTF-8 CSV file (RFC 4180) into a new table, or with --replace in place of a table of"
                + " that name.",
            "The first line is a header naming the columns: each name is matched to a --schema column ignoring"
                    + " case, in any order, and every schema column must be named once (--no-header: the file has"
                    + " no header and its fields are in schema order). Each field is parsed by its column's type:"
                    + " " + ImportCommand.TYPES + ".",
            "An empty unquoted field is NULL; a quoted empty field (\"\") is the empty string.",
            "The first bad record stops the import with its line number; no table is created or replaced then, and"
                    + " neither when SIGINT or SIGTERM stops it. Prints progress on stderr. Holds the store's lock"
                    + " while it writes."},
        footer = {"", "Examples:", "  sluice import --csv sales.csv --store data/mine --table sales \\",
            "      --schema \"k:int64,v:decimal(15,2),d:date,s:string\" --sort-by k",
            "  sluice import --csv sales-2.csv --store data/mine --table sales --replace \\",
            "      --schema \"k:bigint,v:decimal(15,2),d:date,s:varchar\""})
final class ImportCommand extends CliCommand {
    /** The column types and their aliases, as --help and the errors list them. */
    static final String TYPES = "int64 (also bigint, long), int32 (int, integer; range-checked), decimal(p,s)"
            + " (exact; at most s fractional and p-s integer digits), date (yyyy-mm-dd) and string (varchar, text)";

    @Option(names = "--csv", required = true, paramLabel = "<file>", description = "CSV file to import")
    Path csv;

    @Option(names = "--store", required = true, paramLabel = "<dir>", description = "store directory (created if missing),"
            + " or s3://BUCKET/PREFIX on object storage (docs/object-storage.md)")
    Path store;

    @Option(names = "--table", required = true, paramLabel = "<name>", description = "name of the table to write")
    String table;

    @Option(names = "--schema", required = true, paramLabel = "<schema>",
            description = "columns as name:type,... with types int64 (alias bigint, long), int32 (int, integer),"
                    + " decimal(p,s), date, string (varchar, text); any case")
    String schema;

    @Option(names = "--sort-by", paramLabel = "<column>",
            description = "store rows sorted by this column (rows are then held in memory until the end)")
    String sortBy;

    @Option(names = "--no-header", description = "the file has no header line: its fields are in --schema order")
    boolean noHeader;

    @Option(names = "--replace", description = "replace the table if the store has one of that name: its readers"
            + " keep the old rows until the new table is complete, and a failed or stopped import leaves the old"
            + " table as it was")
    boolean replace;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws IOException {
        final Schema parsed = parseSchema();
        if (sortBy != null && parsed.indexOf(sortBy) < 0) {
            throw new IllegalArgumentException("--sort-by " + sortBy + " is not a column of the schema; columns are "
                    + parsed.names());
        }
        if (!Files.isRegularFile(csv)) {
            throw new StorageException("CSV file " + csv + " does not exist or is not a regular file");
        }
        final TableSpec spec = TableSpec.of(table, parsed).withSortKey(sortBy).replacing(replace);
        final long start = System.nanoTime();
        if (ObjectStoreOptions.isObjectStorage(store)) {
            return ObjectStoreWriting.run(store, commandLine(), out, dir -> importInto(Store.open(dir), spec, start, out, err));
        }
        return importInto(Store.create(store), spec, start, out, err);
    }

    private int importInto(final Store opened, final TableSpec spec, final long start, final PrintWriter out,
                           final PrintWriter err) throws IOException {
        try (StopOnSignal signal = new StopOnSignal()) {
            final int code;
            try (StoreLock ignored = lock(opened, err)) {
                checkTable(opened);
                code = importFile(opened, spec, signal, start, out, err);
            }
            out.flush();
            err.flush();
            return code;
        }
    }

    /** Refuses, before reading the file, a table the store has unless --replace asks to replace it. */
    private void checkTable(final Store opened) {
        if (replace) {
            return;
        }
        final StoreContents contents = opened.contents();
        boolean damaged = false;
        for (final Path d : contents.damaged()) {
            damaged |= d.getFileName().toString().equals(table);
        }
        if (contents.tables().contains(table) || damaged) {
            throw new IllegalArgumentException("store " + ObjectStoreOptions.describe(store) + " already has "
                    + (damaged ? "a damaged " : "a ")
                    + "table " + table + ": replace it with `" + shellCommand() + " --replace`, or import into"
                    + " another --table");
        }
    }

    private int importFile(final Store opened, final TableSpec spec, final StopOnSignal signal, final long start,
                           final PrintWriter out, final PrintWriter err) throws IOException {
        final boolean existed = opened.tableNames().contains(table);
        final ImportProgress progress = new ImportProgress(err, System.console() != null, System::nanoTime,
                Files.size(csv), sortBy);
        try (Table imported = CsvImporter.importFile(opened, csv, spec, !noHeader, (rows, bytes) -> {
            signal.check();
            progress.update(rows, bytes);
        })) {
            progress.finish(imported.rowCount());
            progress.close();
            out.printf(Locale.ROOT, "imported %s into table %s of store %s%s: %s, %s%s in %.1f s%n",
                    Plural.of(imported.rowCount(), "row"), imported.name(), store,
                    existed ? ", replacing its previous version" : "", Plural.of(imported.blockCount(), "block"),
                    Sizes.bytes(imported.bytes()),
                    sortBy == null ? "" : ", sorted by " + sortBy, (System.nanoTime() - start) / 1e9);
            return 0;
        } catch (final CancellationException e) {
            progress.close();
            return fail(err, "stopped by a signal: removed the unfinished table " + table
                    + (existed ? " (the previous " + table + " stays)" : "") + "; the store " + store
                    + " keeps its tables " + opened.tableNames());
        } catch (final RuntimeException e) {
            progress.close();
            throw e;
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

package io.sluice.perf.cli;

import io.sluice.iceberg.IcebergCatalog;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --iceberg} and {@code --iceberg-namespace}: Iceberg tables instead of a store or a folder of Parquet files,
 * found through a REST or JDBC catalog or a folder of table metadata (docs/iceberg.md).
 */
final class IcebergOptions {
    @Option(names = "--iceberg", paramLabel = "CATALOG", description = "Instead of --store: Iceberg tables of Parquet"
            + " data files, from a REST catalog (http://HOST:PORT/PATH), a JDBC catalog (jdbc:sqlite:FILE; other"
            + " databases need their driver on the class path), a folder of table folders (NAME/metadata/), one table"
            + " folder or one metadata file; each data file's row groups are blocks and the manifests' file bounds"
            + " prune whole files (see docs/iceberg.md).")
    String iceberg;

    @Option(names = "--iceberg-namespace", paramLabel = "NS", description = "With a REST or JDBC catalog: the"
            + " namespace whose tables are read (levels separated by dots; default: the catalog's only namespace).")
    String namespace;

    /** Whether Iceberg tables were asked for. */
    boolean given() {
        return iceberg != null;
    }

    /**
     * Opens the tables.
     *
     * @throws IllegalArgumentException when {@code --iceberg-namespace} comes without {@code --iceberg}
     */
    IcebergCatalog open() {
        if (iceberg == null) {
            throw new IllegalArgumentException("--iceberg-namespace needs --iceberg CATALOG");
        }
        return IcebergCatalog.open(iceberg, namespace);
    }

    /** The options as a process started with them takes them: none when not given. */
    List<String> args() {
        final List<String> args = new ArrayList<>();
        if (iceberg != null) {
            args.add("--iceberg");
            args.add(iceberg);
            if (namespace != null) {
                args.add("--iceberg-namespace");
                args.add(namespace);
            }
        }
        return args;
    }

    /** As messages name the tables: the catalog, and the namespace when given. */
    String describe() {
        return "iceberg " + iceberg + (namespace == null ? "" : " namespace " + namespace);
    }
}

package io.sluice.iceberg;

import io.sluice.format.StorageException;
import io.sluice.format.spi.Catalog;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * The Iceberg tables of one source ({@link IcebergSource}) as Sluice tables: in a catalog, the tables of one
 * namespace (the catalog's only one unless named); in a folder, each table folder. Listed when opened; each table
 * is loaded (its current snapshot planned, its files' footers read) on first use and stays open until the catalog
 * closes. Thread-safe.
 */
public final class IcebergCatalog implements Catalog, AutoCloseable {
    private final String where;
    private final org.apache.iceberg.catalog.Catalog catalog;
    private final Namespace namespace;
    /** Table name to metadata file, for a source without a catalog. */
    private final Map<String, Path> metadataFiles;
    private final List<String> names;
    private final Map<String, IcebergTable> open = new HashMap<>();

    private IcebergCatalog(final String where, final org.apache.iceberg.catalog.Catalog catalog,
                           final Namespace namespace, final Map<String, Path> metadataFiles, final List<String> names) {
        this.where = where;
        this.catalog = catalog;
        this.namespace = namespace;
        this.metadataFiles = metadataFiles;
        this.names = names;
    }

    /**
     * Opens the tables of {@code source} ({@link IcebergSource#FORMS}) in {@code namespace}.
     *
     * @param namespace the namespace of a REST or JDBC catalog (dots separate levels), or null for the catalog's
     *                  only one; must be null for a folder or a metadata file
     * @throws StorageException when the source cannot be reached or read, the namespace does not exist or is
     *                          ambiguous, naming them and what to give instead
     */
    public static IcebergCatalog open(final String source, final String namespace) {
        final IcebergSource parsed = IcebergSource.parse(source);
        return switch (parsed.kind()) {
            case REST, JDBC -> inCatalog(parsed, namespace);
            case FOLDER, TABLE_FOLDER, METADATA_FILE -> inFolder(parsed, namespace);
        };
    }

    private static IcebergCatalog inCatalog(final IcebergSource source, final String namespace) {
        final org.apache.iceberg.catalog.Catalog catalog = connect(source);
        try {
            final String where = "iceberg catalog " + source.location();
            final Namespace ns = namespace(catalog, where, namespace);
            final List<String> names = new ArrayList<>();
            for (final TableIdentifier id : catalog.listTables(ns)) {
                names.add(id.name());
            }
            names.sort(null);
            return new IcebergCatalog(where + " namespace " + ns, catalog, ns, Map.of(), List.copyOf(names));
        } catch (final RuntimeException e) {
            closeQuietly(catalog, e);
            throw e;
        }
    }

    private static org.apache.iceberg.catalog.Catalog connect(final IcebergSource source) {
        final Map<String, String> properties = new HashMap<>();
        properties.put(CatalogProperties.URI, source.location());
        properties.put(CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName());
        try {
            if (source.kind() == IcebergSource.Kind.REST) {
                final RESTCatalog rest = new RESTCatalog();
                rest.initialize("sluice", properties);
                return rest;
            }
            final String sqlite = "jdbc:sqlite:";
            if (source.location().startsWith(sqlite) && !Files.isRegularFile(Path.of(source.location()
                    .substring(sqlite.length())))) {
                // SQLite would create an empty database there, and the catalog would hold no table.
                throw new StorageException("iceberg catalog " + source.location() + ": the SQLite file "
                        + source.location().substring(sqlite.length()) + " does not exist: give the file an Iceberg"
                        + " JDBC catalog wrote");
            }
            // The JDBC catalog writes new tables under the warehouse; reading needs none, but it must be set.
            properties.put(CatalogProperties.WAREHOUSE_LOCATION, "file:" + Path.of("").toAbsolutePath());
            final JdbcCatalog jdbc = new JdbcCatalog();
            jdbc.initialize(JdbcCatalogName.of(source.location()), properties);
            return jdbc;
        } catch (final StorageException e) {
            throw e;
        } catch (final RuntimeException e) {
            throw new StorageException("iceberg catalog " + source.location() + " cannot be opened (" + e.getMessage()
                    + (e.getCause() != null ? ": " + e.getCause().getMessage() : "") + "): "
                    + (source.kind() == IcebergSource.Kind.REST ? "check the URL and that the catalog server is running"
                    : "check the URI, and that its JDBC driver is on the class path"), e);
        }
    }

    private static Namespace namespace(final org.apache.iceberg.catalog.Catalog catalog, final String where,
                                       final String namespace) {
        final List<Namespace> all = catalog instanceof SupportsNamespaces n ? n.listNamespaces() : List.of();
        if (namespace != null) {
            final Namespace ns = Namespace.of(namespace.split("\\."));
            if (catalog instanceof SupportsNamespaces n && !n.namespaceExists(ns)) {
                throw new StorageException(where + " has no namespace '" + namespace + "' (it has " + all
                        + "): give one of them with --iceberg-namespace");
            }
            return ns;
        }
        if (all.size() == 1) {
            return all.get(0);
        }
        throw new StorageException(where + (all.isEmpty() ? " has no namespace: create one and its tables first"
                : " has namespaces " + all + ": choose one with --iceberg-namespace"));
    }

    private static IcebergCatalog inFolder(final IcebergSource source, final String namespace) {
        final String where = "iceberg folder " + source.location();
        if (namespace != null) {
            throw new StorageException(where + " is not a catalog, so it has no namespace '" + namespace
                    + "': drop --iceberg-namespace, or give a REST or JDBC catalog");
        }
        final Path path = Path.of(source.location());
        final Map<String, Path> files = new TreeMap<>();
        switch (source.kind()) {
            case METADATA_FILE -> {
                final Path tableFolder = path.getParent().getParent();
                files.put(tableFolder == null ? path.getFileName().toString() : tableFolder.getFileName().toString(),
                        path);
            }
            case TABLE_FOLDER -> files.put(path.getFileName().toString(), TableMetadataFiles.latest(path));
            default -> {
                try (Stream<Path> entries = Files.list(path)) {
                    for (final Path entry : entries.sorted().toList()) {
                        if (!entry.getFileName().toString().startsWith(".")
                                && Files.isDirectory(entry.resolve("metadata"))) {
                            files.put(entry.getFileName().toString(), TableMetadataFiles.latest(entry));
                        }
                    }
                } catch (final IOException e) {
                    throw new StorageException(where + " cannot be listed: " + e.getMessage(), e);
                }
                if (files.isEmpty()) {
                    throw new StorageException(where + " holds no table: give a folder of NAME/ table folders, each"
                            + " with a metadata/ folder of *.metadata.json files, or " + IcebergSource.FORMS);
                }
            }
        }
        return new IcebergCatalog(where, null, null, Map.copyOf(files), List.copyOf(files.keySet()));
    }

    /** The tables' names, sorted. */
    public List<String> tableNames() {
        return names;
    }

    /** Whether there is a table of that name. */
    public boolean hasTable(final String name) {
        return names.contains(name);
    }

    /**
     * What scans have read of the tables so far: the data files of the tables they read, and of those the files and
     * blocks read (each counted once).
     *
     * @param dataFiles  the data files of the tables scans read at least one block of
     * @param filesRead  data files at least one block of which was read
     * @param blocksRead blocks read
     */
    public record Reads(long dataFiles, long filesRead, long blocksRead) {
        /** What was read since {@code before}; the data files are the tables' now. */
        public Reads since(final Reads before) {
            return new Reads(dataFiles, filesRead - before.filesRead, blocksRead - before.blocksRead);
        }
    }

    /** What scans have read of the tables opened so far. */
    public synchronized Reads reads() {
        long files = 0;
        long filesRead = 0;
        long blocksRead = 0;
        for (final IcebergTable t : open.values()) {
            final IcebergTable.Reads r = t.reads();
            if (r.filesRead() > 0) {
                files += t.blockFiles().fileCount();
            }
            filesRead += r.filesRead();
            blocksRead += r.blocksRead();
        }
        return new Reads(files, filesRead, blocksRead);
    }

    /** The source and namespace, as messages name them. */
    public String where() {
        return where;
    }

    @Override
    public synchronized IcebergTable table(final String name) {
        final IcebergTable known = open.get(name);
        if (known != null) {
            return known;
        }
        if (!names.contains(name)) {
            throw new StorageException(where + " has no table '" + name + "' (it has " + names + ")");
        }
        final Table table;
        try {
            if (catalog != null) {
                table = catalog.loadTable(TableIdentifier.of(namespace, name));
            } else {
                final Path file = metadataFiles.get(name);
                table = new BaseTable(new StaticTableOperations("file:" + file, new LocalFileIO()), name);
                table.currentSnapshot();
            }
        } catch (final StorageException e) {
            throw e;
        } catch (final RuntimeException e) {
            throw new StorageException(where + ": table '" + name + "' cannot be loaded (" + e.getMessage() + "): its"
                    + " metadata is missing or damaged, or the catalog refused it", e);
        }
        final IcebergTable opened = IcebergTable.open(name, table);
        open.put(name, opened);
        return opened;
    }

    /** Closes every table opened, and the catalog's connection. */
    @Override
    public synchronized void close() {
        for (final IcebergTable t : open.values()) {
            t.close();
        }
        open.clear();
        if (catalog instanceof Closeable c) {
            try {
                c.close();
            } catch (final IOException e) {
                throw new StorageException(where + " does not close: " + e.getMessage(), e);
            }
        }
    }

    private static void closeQuietly(final org.apache.iceberg.catalog.Catalog catalog, final RuntimeException failure) {
        if (catalog instanceof Closeable c) {
            try {
                c.close();
            } catch (final IOException e) {
                failure.addSuppressed(e);
            }
        }
    }
}

package io.sluice.iceberg;

import io.sluice.format.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where Iceberg tables are found, as a user names it: a REST catalog by its URL, a JDBC catalog by its JDBC URI,
 * a folder of tables each with its {@code metadata/} folder, one such table folder, or one table's metadata file.
 *
 * @param kind     which of them
 * @param location the URL, URI or path as given
 */
public record IcebergSource(Kind kind, String location) {
    /** The forms a source takes, as {@code --iceberg} help and errors list them. */
    public static final String FORMS = "a REST catalog URL (http://HOST:PORT/...), a JDBC catalog URI (jdbc:sqlite:FILE,"
            + " jdbc:postgresql://..., with its driver on the class path), a folder of tables (NAME/metadata/*.metadata.json),"
            + " one table folder, or a table's metadata file (.../metadata/v3.metadata.json)";

    /** The forms of a source. */
    public enum Kind {
        /** An Iceberg REST catalog. */
        REST,
        /** Iceberg's JDBC catalog, its tables in a relational database. */
        JDBC,
        /** A folder whose subfolders are tables, each with a {@code metadata/} folder. */
        FOLDER,
        /** One table's folder, holding {@code metadata/}. */
        TABLE_FOLDER,
        /** One table's metadata file. */
        METADATA_FILE
    }

    /**
     * The same source named so that a process started in another directory finds it: a relative path (or the file
     * of a {@code jdbc:sqlite:} URI) made absolute; URLs and other URIs as they are.
     */
    public static String absolute(final String location) {
        final String sqlite = "jdbc:sqlite:";
        if (location.startsWith(sqlite) && !location.startsWith(sqlite + ":")) {
            return sqlite + Path.of(location.substring(sqlite.length())).toAbsolutePath();
        }
        if (location.contains(":")) {
            return location;
        }
        return Path.of(location).toAbsolutePath().toString();
    }

    /**
     * Parses what a user gave.
     *
     * @throws StorageException when it is none of the forms, or a path that does not exist, listing the forms
     */
    public static IcebergSource parse(final String location) {
        if (location == null || location.isBlank()) {
            throw new StorageException("no iceberg source given: give " + FORMS);
        }
        if (location.startsWith("http://") || location.startsWith("https://")) {
            return new IcebergSource(Kind.REST, location);
        }
        if (location.startsWith("jdbc:")) {
            return new IcebergSource(Kind.JDBC, location);
        }
        final int colon = location.indexOf("://");
        if (colon > 0 && !location.startsWith("file://")) {
            throw new StorageException("iceberg source " + location + " names a scheme Sluice does not read ("
                    + location.substring(0, colon) + "://): give " + FORMS);
        }
        final Path path = LocalFileIO.path(location.startsWith("file:") ? location : Path.of(location).toAbsolutePath()
                .toString());
        if (Files.isRegularFile(path) && path.getFileName().toString().endsWith(".metadata.json")) {
            return new IcebergSource(Kind.METADATA_FILE, path.toString());
        }
        if (Files.isDirectory(path)) {
            return new IcebergSource(Files.isDirectory(path.resolve("metadata")) ? Kind.TABLE_FOLDER : Kind.FOLDER,
                    path.toString());
        }
        throw new StorageException("iceberg source " + location + (Files.exists(path) ? " is neither a metadata file"
                + " (*.metadata.json) nor a folder" : " does not exist") + ": give " + FORMS);
    }
}

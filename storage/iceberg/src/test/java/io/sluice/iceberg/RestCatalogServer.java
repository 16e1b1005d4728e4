package io.sluice.iceberg;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The read side of the Iceberg REST catalog protocol (config, namespaces, tables, load table) over another catalog,
 * on a loopback port: what {@code --iceberg http://...} talks to, without a catalog server of its own in the tests.
 */
final class RestCatalogServer implements AutoCloseable {
    private final HttpServer server;
    private final Catalog catalog;

    private RestCatalogServer(final HttpServer server, final Catalog catalog) {
        this.server = server;
        this.catalog = catalog;
    }

    /** Serves {@code catalog} (which must support namespaces) on a free loopback port. */
    static RestCatalogServer start(final Catalog catalog) throws IOException {
        final HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        final RestCatalogServer rest = new RestCatalogServer(server, catalog);
        server.createContext("/", rest::handle);
        server.start();
        return rest;
    }

    /** The catalog's URL. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(final HttpExchange exchange) throws IOException {
        try (exchange) {
            final String[] path = exchange.getRequestURI().getPath().replaceAll("^/|/$", "").split("/");
            String body = null;
            if (path.length == 2 && path[1].equals("config")) {
                body = "{\"defaults\": {}, \"overrides\": {}}";
            } else if (path.length == 2 && path[1].equals("namespaces")) {
                final List<String> names = new ArrayList<>();
                for (final Namespace ns : ((SupportsNamespaces) catalog).listNamespaces()) {
                    names.add("[\"" + ns + "\"]");
                }
                body = "{\"namespaces\": [" + String.join(", ", names) + "]}";
            } else if (path.length == 3 && path[1].equals("namespaces")) {
                if (((SupportsNamespaces) catalog).namespaceExists(Namespace.of(path[2]))) {
                    body = "{\"namespace\": [\"" + path[2] + "\"], \"properties\": {}}";
                }
            } else if (path.length == 4 && path[3].equals("tables")) {
                final List<String> ids = new ArrayList<>();
                for (final TableIdentifier id : catalog.listTables(Namespace.of(path[2]))) {
                    ids.add("{\"namespace\": [\"" + path[2] + "\"], \"name\": \"" + id.name() + "\"}");
                }
                body = "{\"identifiers\": [" + String.join(", ", ids) + "]}";
            } else if (path.length == 5 && path[3].equals("tables")) {
                final TableMetadata metadata = ((BaseTable) catalog.loadTable(TableIdentifier.of(path[2], path[4])))
                        .operations().current();
                body = "{\"metadata-location\": \"" + metadata.metadataFileLocation() + "\", \"metadata\": "
                        + TableMetadataParser.toJson(metadata) + "}";
            }
            final byte[] bytes = (body != null ? body : "{\"error\": {\"message\": \"not found\", \"type\":"
                    + " \"NoSuchNamespaceException\", \"code\": 404}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            final boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(body != null ? (head ? 204 : 200) : 404, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

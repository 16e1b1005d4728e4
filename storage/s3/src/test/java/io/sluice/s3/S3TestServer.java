package io.sluice.s3;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server for tests: S3Proxy on a free loopback port, its objects in files under a directory; it can be
 * stopped and started again on the same port, and told to fail the next GETs of block files.
 */
public final class S3TestServer implements AutoCloseable {
    /** The access key the server accepts. */
    public static final String ACCESS_KEY = "sluice-test-access";
    /** The secret key the server accepts. */
    public static final String SECRET_KEY = "sluice-test-secret";

    private final FailingBlobStore blobs;
    private final int port;
    private S3Proxy proxy;

    private S3TestServer(final FailingBlobStore blobs, final S3Proxy proxy) {
        this.blobs = blobs;
        this.proxy = proxy;
        this.port = proxy.getPort();
    }

    /** Starts a server keeping its objects under {@code dir}; returns once it serves. */
    public static S3TestServer start(final Path dir) throws Exception {
        Files.createDirectories(dir);
        final Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", dir.toAbsolutePath().toString());
        final FailingBlobStore blobs = new FailingBlobStore(BlobStores.create("filesystem", properties));
        return new S3TestServer(blobs, serve(blobs, 0));
    }

    private static S3Proxy serve(final FailingBlobStore blobs, final int port) throws Exception {
        final S3Proxy proxy = S3Proxy.builder()
                .blobStore(blobs)
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start within 30 s: " + proxy.getState());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return proxy;
    }

    /** Stops serving: requests are refused until {@link #startAgain}. */
    public void stop() throws Exception {
        proxy.stop();
    }

    /** Serves again on the same port, the same objects (a restarted server). */
    public void startAgain() throws Exception {
        proxy = serve(blobs, port);
    }

    /** The next {@code n} GETs of block files answer HTTP 500 InternalError, which clients retry. */
    public void failNextBlockGets(final int n) {
        blobs.failNextBlockGets(n);
    }

    /** GETs of block files the server saw (answered or failed). */
    public long blockGets() {
        return blobs.blockGets();
    }

    /** GETs of block files answered with 500. */
    public long failedBlockGets() {
        return blobs.failed();
    }

    /** The server's address. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Settings that reach this server with its keys. */
    public S3Settings settings() {
        return new S3Settings(endpoint(), S3Settings.DEFAULT_REGION, ACCESS_KEY, SECRET_KEY);
    }

    /** The variables a process needs to reach this server (AWS_ENDPOINT_URL and the keys). */
    public Map<String, String> environment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint().toString(), "AWS_ACCESS_KEY_ID", ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_REGION", S3Settings.DEFAULT_REGION);
    }

    /** Creates a bucket. */
    public void createBucket(final String bucket) {
        try (S3Client client = settings().client()) {
            client.createBucket(b -> b.bucket(bucket));
        }
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}

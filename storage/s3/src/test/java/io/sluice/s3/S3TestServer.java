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

/** A real S3 server for tests: S3Proxy on a free loopback port, its objects in files under a directory. */
public final class S3TestServer implements AutoCloseable {
    /** The access key the server accepts. */
    public static final String ACCESS_KEY = "sluice-test-access";
    /** The secret key the server accepts. */
    public static final String SECRET_KEY = "sluice-test-secret";

    private final S3Proxy proxy;

    private S3TestServer(final S3Proxy proxy) {
        this.proxy = proxy;
    }

    /** Starts a server keeping its objects under {@code dir}; returns once it serves. */
    public static S3TestServer start(final Path dir) throws Exception {
        Files.createDirectories(dir);
        final Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", dir.toAbsolutePath().toString());
        final S3Proxy proxy = S3Proxy.builder()
                .blobStore(BlobStores.create("filesystem", properties))
                .endpoint(URI.create("http://127.0.0.1:0"))
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
        return new S3TestServer(proxy);
    }

    /** The server's address. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
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

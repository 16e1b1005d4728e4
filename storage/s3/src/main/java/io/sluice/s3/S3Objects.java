package io.sluice.s3;

import io.sluice.format.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The objects of one store on object storage: the few requests a store makes, each failure turned into a
 * {@link StorageException} naming the bucket and key and saying what to fix (credentials, endpoint, bucket). Counts
 * the GETs and the bytes they read. Thread-safe (the SDK client is).
 */
public final class S3Objects implements AutoCloseable {
    private final S3Client client;
    private final S3Location location;
    private final S3Settings settings;
    private final AtomicLong gets = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();

    /** The objects of the store at {@code location}, reached with {@code settings}. */
    public S3Objects(final S3Location location, final S3Settings settings) {
        this.location = location;
        this.settings = settings;
        this.client = settings.client();
    }

    /** The store's location. */
    public S3Location location() {
        return location;
    }

    /** GET requests made (each retry by the SDK counts once). */
    public long gets() {
        return gets.get();
    }

    /** Bytes the GETs read. */
    public long bytesRead() {
        return bytesRead.get();
    }

    /** The object at {@code relative} (a path inside the store), or null when there is none. */
    public byte[] get(final String relative) {
        final String key = location.key(relative);
        gets.incrementAndGet();
        try {
            final ResponseBytes<GetObjectResponse> bytes = client.getObjectAsBytes(b -> b.bucket(location.bucket()).key(key));
            final byte[] array = bytes.asByteArray();
            bytesRead.addAndGet(array.length);
            return array;
        } catch (final NoSuchKeyException e) {
            return null;
        } catch (final SdkException e) {
            throw failure("read", relative, e);
        }
    }

    /** Writes the object at {@code relative} into {@code file}, which must not exist; returns its length. */
    public long download(final String relative, final Path file) {
        final String key = location.key(relative);
        gets.incrementAndGet();
        try {
            final GetObjectResponse response = client.getObject(b -> b.bucket(location.bucket()).key(key),
                    ResponseTransformer.toFile(file));
            final long length = response.contentLength() == null ? file.toFile().length() : response.contentLength();
            bytesRead.addAndGet(length);
            return length;
        } catch (final NoSuchKeyException e) {
            throw new StorageException("object " + location.uri(relative) + " is missing: the store's manifest names it;"
                    + " the store was damaged or its table was replaced meanwhile: run the query again, or write the"
                    + " table again", e);
        } catch (final SdkException e) {
            throw failure("read", relative, e);
        }
    }

    /** Uploads {@code file} as the object at {@code relative}, replacing any. */
    public void put(final String relative, final Path file) {
        try {
            client.putObject(b -> b.bucket(location.bucket()).key(location.key(relative)), RequestBody.fromFile(file));
        } catch (final SdkException e) {
            throw failure("write", relative, e);
        }
    }

    /** Uploads {@code bytes} as the object at {@code relative}, replacing any. */
    public void put(final String relative, final byte[] bytes) {
        try {
            client.putObject(b -> b.bucket(location.bucket()).key(location.key(relative)), RequestBody.fromBytes(bytes));
        } catch (final SdkException e) {
            throw failure("write", relative, e);
        }
    }

    /**
     * Creates the object at {@code relative} only if there is none (a conditional put, {@code If-None-Match: *}).
     *
     * @return false when the object exists
     */
    public boolean putIfAbsent(final String relative, final byte[] bytes) {
        try {
            client.putObject(b -> b.bucket(location.bucket()).key(location.key(relative)).ifNoneMatch("*"),
                    RequestBody.fromBytes(bytes));
            return true;
        } catch (final S3Exception e) {
            // 412: it exists; 409: a concurrent conditional write of the same key is in flight.
            if (e.statusCode() == 412 || e.statusCode() == 409) {
                return false;
            }
            throw failure("write", relative, e);
        } catch (final SdkException e) {
            throw failure("write", relative, e);
        }
    }

    /** Deletes the object at {@code relative} (nothing when there is none). */
    public void delete(final String relative) {
        try {
            client.deleteObject(b -> b.bucket(location.bucket()).key(location.key(relative)));
        } catch (final SdkException e) {
            throw failure("delete", relative, e);
        }
    }

    /** Deletes every object under {@code relative} + '/'. */
    public void deleteTree(final String relative) {
        for (final String entry : listFiles(relative + "/", false)) {
            delete(entry);
        }
    }

    /** The names (paths inside the store, ending with '/') of the "directories" right under {@code relative}. */
    public List<String> listDirectories(final String relative) {
        final List<String> dirs = new ArrayList<>();
        list(relative, true, dirs, new ArrayList<>());
        return dirs;
    }

    /**
     * The paths inside the store of the objects under {@code relative}: right under it ({@code directFiles}) or at
     * any depth.
     */
    public List<String> listFiles(final String relative, final boolean directFiles) {
        final List<String> files = new ArrayList<>();
        list(relative, directFiles, new ArrayList<>(), files);
        return files;
    }

    private void list(final String relative, final boolean delimited, final List<String> dirs, final List<String> files) {
        final String prefix = location.keyPrefix() + relative;
        final int strip = location.keyPrefix().length();
        try {
            final ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(location.bucket())
                    .prefix(prefix);
            if (delimited) {
                request.delimiter("/");
            }
            for (final ListObjectsV2Response page : client.listObjectsV2Paginator(request.build())) {
                for (final CommonPrefix p : page.commonPrefixes()) {
                    dirs.add(p.prefix().substring(strip));
                }
                for (final S3Object o : page.contents()) {
                    files.add(o.key().substring(strip));
                }
            }
        } catch (final SdkException e) {
            throw failure("list", relative, e);
        }
    }

    /** The error of a failed request: what was asked, where, why, and what to check. */
    StorageException failure(final String verb, final String relative, final SdkException e) {
        final String what = "cannot " + verb + " " + location.uri(relative) + " at " + settings.describeEndpoint();
        if (e instanceof S3Exception s3) {
            final String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            if ("NoSuchBucket".equals(code)) {
                return new StorageException(what + ": bucket '" + location.bucket() + "' does not exist there;"
                        + " create it, or check the bucket name and AWS_ENDPOINT_URL", e);
            }
            if (s3.statusCode() == 403 || "InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code)
                    || "AccessDenied".equals(code)) {
                return new StorageException(what + ": access denied (" + (code == null ? "HTTP 403" : code) + "): check"
                        + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and that they may use bucket '"
                        + location.bucket() + "'", e);
            }
            if (s3.statusCode() >= 500) {
                return new StorageException(what + ": HTTP " + s3.statusCode() + (code == null ? "" : " " + code)
                        + " after " + S3Settings.ATTEMPTS + " attempts: the server is failing or overloaded; run the"
                        + " query again once it answers (" + e.getMessage() + ")", e);
            }
            return new StorageException(what + ": HTTP " + s3.statusCode() + (code == null ? "" : " " + code) + ": "
                    + e.getMessage(), e);
        }
        if (e instanceof SdkClientException) {
            return new StorageException(what + ": " + e.getMessage() + " (after " + S3Settings.ATTEMPTS
                    + " attempts): check that the server runs and AWS_ENDPOINT_URL names it, and the credentials"
                    + " (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)", e);
        }
        return new StorageException(what + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        client.close();
    }
}

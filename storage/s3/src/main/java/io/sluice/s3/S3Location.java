package io.sluice.s3;

/**
 * Where a store lives on object storage: {@code s3://BUCKET/PREFIX}, the prefix playing the store directory's part.
 *
 * @param bucket the bucket
 * @param prefix the key prefix without leading or trailing '/', empty for the bucket's root
 */
public record S3Location(String bucket, String prefix) {
    /** The scheme that marks a store on object storage. */
    public static final String SCHEME = "s3://";

    /** Checks the parts. */
    public S3Location {
        if (bucket.isEmpty() || bucket.contains("/")) {
            throw new IllegalArgumentException("'" + bucket + "' is not a bucket name: write s3://BUCKET/PREFIX");
        }
        while (prefix.startsWith("/")) {
            prefix = prefix.substring(1);
        }
        while (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
    }

    /**
     * Whether {@code where} names object storage: {@code s3://...}, or {@code s3:/...} as a file path normalises it
     * (a command line option parsed as a path).
     */
    public static boolean isS3(final String where) {
        return where.startsWith("s3:/");
    }

    /**
     * Parses {@code s3://BUCKET/PREFIX} (or {@code s3:/BUCKET/PREFIX}).
     *
     * @throws IllegalArgumentException saying how to write one
     */
    public static S3Location parse(final String where) {
        if (!isS3(where)) {
            throw new IllegalArgumentException("'" + where + "' is not on object storage: write s3://BUCKET/PREFIX");
        }
        String rest = where.substring("s3:/".length());
        if (rest.startsWith("/")) {
            rest = rest.substring(1);
        }
        final int slash = rest.indexOf('/');
        return slash < 0 ? new S3Location(rest, "") : new S3Location(rest.substring(0, slash), rest.substring(slash + 1));
    }

    /** The key of {@code relative} (a path inside the store, '/'-separated). */
    public String key(final String relative) {
        return prefix.isEmpty() ? relative : prefix + "/" + relative;
    }

    /** The key prefix of the store's entries: the prefix and a '/', or empty. */
    public String keyPrefix() {
        return prefix.isEmpty() ? "" : prefix + "/";
    }

    /** The URI of an object of the store. */
    public String uri(final String relative) {
        return SCHEME + bucket + "/" + key(relative);
    }

    @Override
    public String toString() {
        return SCHEME + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }
}

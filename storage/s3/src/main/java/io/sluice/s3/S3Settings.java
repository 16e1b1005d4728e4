package io.sluice.s3;

import java.net.URI;
import java.util.Map;
import java.util.Properties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * How to reach object storage: the endpoint (an S3-compatible server; path-style addressing), the region and the
 * credentials, from the standard AWS variables ({@code AWS_ENDPOINT_URL}, {@code AWS_REGION},
 * {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}) or the SDK's system properties of the same meaning.
 *
 * @param endpoint        the server, or null for AWS itself
 * @param region          the region ({@value #DEFAULT_REGION} when none is set)
 * @param accessKeyId     the access key, or null for the SDK's default credentials (profile, instance role)
 * @param secretAccessKey the secret key, with {@code accessKeyId}
 */
public record S3Settings(URI endpoint, String region, String accessKeyId, String secretAccessKey) {
    /** The region used when none is configured (S3-compatible servers mostly ignore it). */
    public static final String DEFAULT_REGION = "us-east-1";
    /** Attempts of each request (the SDK's standard retry strategy, with backoff) before an error. */
    public static final int ATTEMPTS = 6;

    /** The settings of this process's environment and system properties. */
    public static S3Settings fromEnvironment() {
        return from(System.getenv(), System.getProperties());
    }

    /** The settings of {@code env}, each overridden by its SDK system property in {@code properties} where set. */
    public static S3Settings from(final Map<String, String> env, final Properties properties) {
        final String endpoint = value(env, "AWS_ENDPOINT_URL", properties, "aws.endpointUrl");
        final String region = value(env, "AWS_REGION", properties, "aws.region");
        return new S3Settings(endpoint == null ? null : URI.create(endpoint), region == null ? DEFAULT_REGION : region,
                value(env, "AWS_ACCESS_KEY_ID", properties, "aws.accessKeyId"),
                value(env, "AWS_SECRET_ACCESS_KEY", properties, "aws.secretAccessKey"));
    }

    private static String value(final Map<String, String> env, final String variable, final Properties properties,
                                final String property) {
        final String p = properties.getProperty(property);
        if (p != null && !p.isBlank()) {
            return p.trim();
        }
        final String v = env.get(variable);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Where requests go, as errors name it. */
    public String describeEndpoint() {
        return endpoint == null ? "AWS S3 in " + region + " (AWS_ENDPOINT_URL is not set)" : endpoint.toString();
    }

    /** A client for these settings: URL-connection HTTP, standard retries, checksums only where S3 requires them. */
    public S3Client client() {
        final AwsCredentialsProvider credentials = accessKeyId != null && secretAccessKey != null
                ? StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey))
                : DefaultCredentialsProvider.builder().build();
        final S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(Region.of(region))
                .credentialsProvider(credentials)
                // S3-compatible servers differ in what checksum trailers they accept; blocks carry their own.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(ATTEMPTS).build()));
        if (endpoint != null) {
            builder.endpointOverride(endpoint).forcePathStyle(true);
        }
        return builder.build();
    }
}

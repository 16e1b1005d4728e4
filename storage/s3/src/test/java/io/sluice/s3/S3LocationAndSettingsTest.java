package io.sluice.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class S3LocationAndSettingsTest {
    @Test
    void aLocationParsesAsWrittenAndAsAFilePathNormalisesIt() {
        final S3Location written = S3Location.parse("s3://bucket/stores/sf1/");
        assertThat(written).isEqualTo(new S3Location("bucket", "stores/sf1"));
        assertThat(S3Location.parse(Path.of("s3://bucket/stores/sf1").toString())).isEqualTo(written);
        assertThat(written.key("lineitem/manifest.properties")).isEqualTo("stores/sf1/lineitem/manifest.properties");
        assertThat(written.uri(".lock")).isEqualTo("s3://bucket/stores/sf1/.lock");
        assertThat(written).hasToString("s3://bucket/stores/sf1");
        final S3Location root = S3Location.parse("s3://bucket");
        assertThat(root.key("t/manifest.properties")).isEqualTo("t/manifest.properties");
        assertThat(root).hasToString("s3://bucket");
    }

    @Test
    void somethingElseIsNotALocation() {
        assertThat(S3Location.isS3("data/sf1")).isFalse();
        assertThatThrownBy(() -> S3Location.parse("data/sf1")).hasMessageContaining("write s3://BUCKET/PREFIX");
        assertThatThrownBy(() -> S3Location.parse("s3:///x")).hasMessageContaining("is not a bucket name");
    }

    @Test
    void settingsComeFromTheAwsVariablesAndTheSdksPropertiesOverrideThem() {
        final Map<String, String> env = Map.of("AWS_ENDPOINT_URL", "http://minio:9000", "AWS_ACCESS_KEY_ID", "ak",
                "AWS_SECRET_ACCESS_KEY", "sk");
        assertThat(S3Settings.from(env, new Properties()))
                .isEqualTo(new S3Settings(URI.create("http://minio:9000"), "us-east-1", "ak", "sk"));
        final Properties properties = new Properties();
        properties.setProperty("aws.endpointUrl", "http://127.0.0.1:9571");
        properties.setProperty("aws.region", "eu-west-1");
        assertThat(S3Settings.from(env, properties))
                .isEqualTo(new S3Settings(URI.create("http://127.0.0.1:9571"), "eu-west-1", "ak", "sk"));
        final S3Settings aws = S3Settings.from(Map.of(), new Properties());
        assertThat(aws.endpoint()).isNull();
        assertThat(aws.describeEndpoint()).contains("AWS_ENDPOINT_URL is not set");
    }
}

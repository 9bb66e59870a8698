//! OCI images as `docker run` and its kin name them, past the flags that
//! take a value: pinned by a digest or a tag other than `latest`.

use super::spec::{Ecosystem, PackageSpec, Pin};

/// `docker run` options that take a value (the next argument).
pub(super) const DOCKER_VALUE_FLAGS: &[&str] = &[
    "-e",
    "--env",
    "--env-file",
    "-v",
    "--volume",
    "--mount",
    "--name",
    "-p",
    "--publish",
    "--network",
    "--net",
    "--entrypoint",
    "-w",
    "--workdir",
    "-u",
    "--user",
    "-l",
    "--label",
    "--label-file",
    "--platform",
    "--pull",
    "--cpus",
    "-m",
    "--memory",
    "--add-host",
    "--cap-add",
    "--cap-drop",
    "--device",
    "--dns",
    "-h",
    "--hostname",
    "--ipc",
    "--log-driver",
    "--log-opt",
    "--restart",
    "--security-opt",
    "--shm-size",
    "--tmpfs",
    "--ulimit",
    "--group-add",
    "--runtime",
    "--cidfile",
    "--expose",
    "--gpus",
    "--pid",
    "--stop-signal",
    "--stop-timeout",
    "--userns",
    "--uts",
    "--volumes-from",
    "-a",
    "--attach",
    "--cgroupns",
    "--cgroup-parent",
    "--health-cmd",
    "--isolation",
    "--link",
    "--mac-address",
    "--ip",
    "--ip6",
];

pub(super) fn image_spec(spec: &str) -> PackageSpec {
    let (name, pin) = if let Some((name, digest)) = spec.split_once('@') {
        let valid = digest
            .strip_prefix("sha256:")
            .is_some_and(|hex| hex.len() == 64 && hex.chars().all(|c| c.is_ascii_hexdigit()));
        let pin = if valid {
            Pin::Exact(digest.to_string())
        } else {
            Pin::Invalid(format!("`{digest}` is not a sha256 digest"))
        };
        (name, pin)
    } else {
        let last_slash = spec.rfind('/').map_or(0, |i| i + 1);
        match spec[last_slash..].rfind(':') {
            Some(colon) => {
                let colon = colon + last_slash;
                let tag = &spec[colon + 1..];
                let valid_tag = !tag.is_empty()
                    && tag.len() <= 128
                    && tag
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    && tag
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
                let pin = match tag {
                    "latest" => Pin::Latest,
                    _ if valid_tag => Pin::Exact(tag.to_string()),
                    _ => Pin::Invalid(format!("`{tag}` is not a valid image tag")),
                };
                (&spec[..colon], pin)
            }
            None => (spec, Pin::Missing),
        }
    };
    PackageSpec {
        ecosystem: Ecosystem::Oci,
        package: name.to_string(),
        spec: spec.to_string(),
        pin,
    }
}

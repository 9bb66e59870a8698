//! `private_key_jwt` client authentication (RFC 7523), signed with ring.
//!
//! rmcp offers this behind `auth-client-credentials-jwt`, which pulls in
//! jsonwebtoken with aws-lc-rs and its C build; mcpctl already carries ring
//! (rustls' provider), which signs ES256 and RS256, so the assertion is made
//! here. The algorithm is taken from the key: a PKCS#8 P-256 key signs
//! ES256, an RSA key (PKCS#8 or PKCS#1) RS256.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, RsaKeyPair};

/// A client's signing key.
pub enum SigningKey {
    /// P-256, ES256.
    Es256(EcdsaKeyPair),
    /// RSA, RS256.
    Rs256(RsaKeyPair),
}

impl SigningKey {
    /// Parse a PEM private key. Errors say what is wrong without echoing
    /// the key.
    pub fn from_pem(pem: &str) -> Result<SigningKey, String> {
        let (label, der) = pem_block(pem)?;
        let rng = SystemRandom::new();
        match label.as_str() {
            "PRIVATE KEY" => {
                if let Ok(key) = EcdsaKeyPair::from_pkcs8(
                    &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
                    &der,
                    &rng,
                ) {
                    return Ok(SigningKey::Es256(key));
                }
                RsaKeyPair::from_pkcs8(&der)
                    .map(SigningKey::Rs256)
                    .map_err(|_| {
                        "the key is neither a P-256 (ES256) nor an RSA (RS256) PKCS#8 key".into()
                    })
            }
            "RSA PRIVATE KEY" => RsaKeyPair::from_der(&der)
                .map(SigningKey::Rs256)
                .map_err(|_| "the RSA key could not be read".into()),
            "EC PRIVATE KEY" => Err(
                "SEC1 EC keys are not read; convert it with `openssl pkcs8 -topk8 -nocrypt`".into(),
            ),
            other => Err(format!("a `{other}` PEM block is not a private key")),
        }
    }

    /// The JWS algorithm name.
    pub fn alg(&self) -> &'static str {
        match self {
            SigningKey::Es256(_) => "ES256",
            SigningKey::Rs256(_) => "RS256",
        }
    }

    fn sign(&self, input: &[u8]) -> Result<Vec<u8>, String> {
        let rng = SystemRandom::new();
        match self {
            SigningKey::Es256(key) => key
                .sign(&rng, input)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| "signing failed".to_string()),
            SigningKey::Rs256(key) => {
                let mut out = vec![0u8; key.public().modulus_len()];
                key.sign(&signature::RSA_PKCS1_SHA256, &rng, input, &mut out)
                    .map_err(|_| "signing failed".to_string())?;
                Ok(out)
            }
        }
    }

    /// A client assertion for `client_id` at `audience` (the issuer),
    /// valid for five minutes, with a random `jti`.
    pub fn assertion(&self, client_id: &str, audience: &str) -> Result<String, String> {
        let now = super::store::now();
        let mut jti = [0u8; 16];
        ring::rand::SecureRandom::fill(&SystemRandom::new(), &mut jti)
            .map_err(|_| "no randomness".to_string())?;
        let header = serde_json::json!({"alg": self.alg(), "typ": "JWT"});
        let claims = serde_json::json!({
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": now,
            "exp": now + 300,
            "jti": URL_SAFE_NO_PAD.encode(jti),
        });
        let signing_input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = self.sign(signing_input.as_bytes())?;
        Ok(format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature)
        ))
    }
}

/// The label and DER bytes of the first PEM block in `pem`.
fn pem_block(pem: &str) -> Result<(String, Vec<u8>), String> {
    let not_pem = || "the key is not PEM (-----BEGIN … PRIVATE KEY-----)".to_string();
    let start = pem.find("-----BEGIN ").ok_or_else(not_pem)?;
    let rest = &pem[start + "-----BEGIN ".len()..];
    let label_end = rest.find("-----").ok_or_else(not_pem)?;
    let label = rest[..label_end].to_string();
    let body_start = label_end + 5;
    let end_marker = format!("-----END {label}-----");
    let body_end = rest.find(&end_marker).ok_or_else(not_pem)?;
    let body: String = rest[body_start..body_end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let der = STANDARD
        .decode(body)
        .map_err(|_| "the PEM body is not base64".to_string())?;
    Ok((label, der))
}

#[cfg(test)]
mod tests {
    use super::*;

    // A throwaway P-256 key made for this test.
    const ES256: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnUn68iP9jFZemyIq
QStq2qZ4Cn+ZodmhxZJfaBXiFlShRANCAASzBbnT/XKAxv3aaH5MIFxmf1qX2OrU
H8IFRfZrOpVCoi57fADdLKIR7DyCQ/Rm0qHAgExYPjGWcQ6Uu7T8FjNh
-----END PRIVATE KEY-----
";

    #[test]
    fn an_es256_key_signs_a_three_part_assertion() {
        let key = SigningKey::from_pem(ES256).unwrap();
        assert_eq!(key.alg(), "ES256");
        let jwt = key.assertion("client", "http://127.0.0.1/as").unwrap();
        assert_eq!(jwt.split('.').count(), 3);
        let header = URL_SAFE_NO_PAD
            .decode(jwt.split('.').next().unwrap())
            .unwrap();
        assert!(String::from_utf8(header).unwrap().contains("ES256"));
    }

    #[test]
    fn garbage_is_refused_without_echoing_it() {
        let err = SigningKey::from_pem("hunter2-secret-value").err().unwrap();
        assert!(!err.contains("hunter2"));
    }
}

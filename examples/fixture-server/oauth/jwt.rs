//! Verifying `private_key_jwt` client assertions (RFC 7523, RFC 7521
//! section 4.2) against public keys given as JWKs: ES256 (P-256) and RS256.
//!
//! Only what a token endpoint needs: the signature, `iss` = `sub` = the
//! client, `aud` naming this server, an `exp` in the future and a `jti`.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::signature::{self, RsaPublicKeyComponents, UnparsedPublicKey};
use serde_json::Value;

/// What a verified assertion said that the caller still has to check: its
/// `jti`, against replays.
pub struct Verified {
    pub jti: String,
}

fn decode(part: &str) -> Result<Vec<u8>, String> {
    URL_SAFE_NO_PAD
        .decode(part.trim_end_matches('='))
        .map_err(|e| format!("not base64url: {e}"))
}

fn member(key: &Value, name: &str) -> Result<Vec<u8>, String> {
    let text = key
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("JWK without {name}"))?;
    decode(text)
}

/// Whether `key` (a JWK) verifies `sig` over `message` with `alg`.
fn check(alg: &str, key: &Value, message: &[u8], sig: &[u8]) -> Result<bool, String> {
    let kty = key.get("kty").and_then(Value::as_str).unwrap_or_default();
    match (alg, kty) {
        ("ES256", "EC") => {
            let mut point = vec![4u8];
            point.extend(member(key, "x")?);
            point.extend(member(key, "y")?);
            Ok(
                UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, &point)
                    .verify(message, sig)
                    .is_ok(),
            )
        }
        ("RS256", "RSA") => {
            let components = RsaPublicKeyComponents {
                n: member(key, "n")?,
                e: member(key, "e")?,
            };
            Ok(components
                .verify(&signature::RSA_PKCS1_2048_8192_SHA256, message, sig)
                .is_ok())
        }
        _ => Ok(false),
    }
}

/// Verify `assertion` for `client_id` with one of `keys`; `audiences` are
/// the values `aud` may take (the issuer, the endpoint's URL).
pub fn verify(
    assertion: &str,
    keys: &[Value],
    client_id: Option<&str>,
    audiences: &[String],
) -> Result<Verified, String> {
    let parts: Vec<&str> = assertion.split('.').collect();
    let [head, body, sig] = parts[..] else {
        return Err("a client assertion must be a JWS in compact form".into());
    };
    let header: Value =
        serde_json::from_slice(&decode(head)?).map_err(|e| format!("JWT header: {e}"))?;
    let claims: Value =
        serde_json::from_slice(&decode(body)?).map_err(|e| format!("JWT claims: {e}"))?;
    let sig = decode(sig)?;
    let alg = header
        .get("alg")
        .and_then(Value::as_str)
        .ok_or("JWT header without alg")?;
    if alg != "ES256" && alg != "RS256" {
        return Err(format!("unsupported alg {alg}"));
    }
    let kid = header.get("kid").and_then(Value::as_str);
    let message = format!("{head}.{body}");
    let mut verified = false;
    for key in keys {
        let key_kid = key.get("kid").and_then(Value::as_str);
        if kid.is_some() && key_kid.is_some() && kid != key_kid {
            continue;
        }
        if check(alg, key, message.as_bytes(), &sig)? {
            verified = true;
            break;
        }
    }
    if !verified {
        return Err("the assertion's signature matches none of the client's keys".into());
    }
    let text = |name: &str| claims.get(name).and_then(Value::as_str).unwrap_or_default();
    let (iss, sub) = (text("iss"), text("sub"));
    if iss.is_empty() || iss != sub {
        return Err("iss and sub must both be the client_id".into());
    }
    if client_id.is_some_and(|id| id != sub) {
        return Err("the assertion's sub is not the client_id sent".into());
    }
    let aud_ok = match claims.get("aud") {
        Some(Value::String(a)) => audiences.contains(a),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .any(|a| audiences.iter().any(|x| x == a)),
        _ => false,
    };
    if !aud_ok {
        return Err(format!("aud must be one of {audiences:?}"));
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    match claims.get("exp").and_then(Value::as_u64) {
        Some(exp) if exp > now => {}
        Some(_) => return Err("the assertion has expired".into()),
        None => return Err("the assertion has no exp".into()),
    }
    let jti = text("jti");
    if jti.is_empty() {
        return Err("the assertion has no jti".into());
    }
    Ok(Verified {
        jti: jti.to_string(),
    })
}

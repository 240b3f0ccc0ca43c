//! Writes the benches' synthetic samples file of N samples to PATH (`benches/scale/run.sh`
//! calls it): `cargo run --release --example generate-samples -- N PATH`.

#[path = "samples.rs"]
mod samples;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(n), Some(path)) = (args.first().and_then(|n| n.parse::<f64>().ok()), args.get(1)) else {
        eprintln!("usage: generate-samples N PATH");
        std::process::exit(2);
    };
    if let Err(e) = samples::write(std::path::Path::new(path), n as usize) {
        eprintln!("writing {path}: {e}");
        std::process::exit(1);
    }
}

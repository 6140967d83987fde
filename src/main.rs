//! The `shishi` binary: hands the command line to [`shishi::cli`].

fn main() {
    std::process::exit(shishi::cli::run());
}

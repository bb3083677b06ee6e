pub fn run(_o: crate::cli::CacheOptions) -> anyhow::Result<std::process::ExitCode> {
    Ok(std::process::ExitCode::SUCCESS)
}

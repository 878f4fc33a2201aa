//! `brokkr tables`: list or export the generated tables (issue 5).

pub fn run(_args: &[String]) -> Result<(), String> {
    Err("tables: not implemented yet".to_string())
}

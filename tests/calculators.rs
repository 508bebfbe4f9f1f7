//! The table of calculators (`model::calculators`) and what each row needs besides: its wasm
//! binary in Cargo.toml and src/bin, its HTML entry (which the site build finds by itself),
//! and its subcommands in the command's help. The lists made from the table (subcommands,
//! sites, fuzz targets, golden views) follow it by construction.

use scalewise::cli::{CALCULATOR_COMMANDS, SUBCOMMANDS};
use scalewise::model::calculators::CALCULATORS;
use scalewise::model::contracts::CONTRACTS;

mod common;
use common::run;

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_calculator_has_its_binary_entry_and_subcommands() {
    let cargo = read("Cargo.toml");
    let help = run(&["--help"], "").stdout;
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("CALCULATORS:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(CALCULATOR_COMMANDS.len(), CALCULATORS.len());
    assert_eq!(CONTRACTS.len(), CALCULATORS.len());
    for ((c, commands), contract) in CALCULATOR_COMMANDS.iter().zip(CONTRACTS) {
        assert_eq!(contract.calculator, *c);
        let bin = format!("sw-{}", c.key);
        assert!(
            cargo.contains(&format!("name = \"{bin}\"\npath = \"src/bin/{bin}.rs\"")),
            "Cargo.toml lacks the [[bin]] {bin}"
        );
        assert!(
            read(&format!("src/bin/{bin}.rs")).contains("scalewise::ui::start("),
            "src/bin/{bin}.rs starts no site"
        );
        assert!(read(c.file).contains(&format!("data-bin=\"{bin}\"")), "{} does not build {bin}", c.file);
        for cmd in commands.iter().map(|c| c.name) {
            assert!(listed.contains(&cmd), "scalewise --help lacks {cmd}");
            assert_eq!(run(&[cmd, "--help"], "").status, 0, "{cmd} --help");
        }
    }
    // The help lists every subcommand, and every one but the catalog's two (the presets, and
    // clusters from node reports) belongs to a calculator.
    assert_eq!(listed, SUBCOMMANDS.iter().map(|c| c.name).collect::<Vec<_>>());
    for cmd in listed.iter().filter(|c| !["catalog", "cluster"].contains(*c)) {
        assert!(
            CALCULATOR_COMMANDS.iter().any(|(_, cmds)| cmds.iter().any(|c| c.name == *cmd)),
            "{cmd} belongs to no calculator"
        );
    }
    // And every HTML entry at the root is a calculator's or the index.
    for e in std::fs::read_dir(env!("CARGO_MANIFEST_DIR")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".html") && name != "index.html" {
            assert!(CALCULATORS.iter().any(|c| c.file == name), "{name} is no calculator's entry");
        }
    }
}

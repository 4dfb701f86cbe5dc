fn main() {
    let p = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&p).unwrap();
    let r = sgfaudit::audit::audit_bytes(
        &p,
        &bytes,
        &Default::default(),
        &mut sgfaudit::core::replay::Replayer::new(),
    );
    println!("{}", r.games.len());
}

//! Synthetic One Piece cards for load-time measurements: `riffle bench --cards N` and the
//! criterion benchmarks write a set of N scripted characters with this.

use std::path::Path;

/// Writes a set of `n` synthetic One Piece characters into the set folder `dir` (created if
/// missing): `set.yaml` (set id `SYN`), then `SYN-0000.yaml` and `SYN-0000.lua` onwards, each
/// a character with an `[On Play] Draw 1 card.` script. Colours, costs and powers vary by
/// index, so the cards are not all alike.
pub fn write_onepiece_set(dir: &Path, n: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(
        dir.join("set.yaml"),
        "game: onepiece\nid: SYN\nname: {en: Synthetic}\nversion: \"1\"\n",
    )?;
    let colors = ["red", "green", "blue", "purple", "black", "yellow"];
    for i in 0..n {
        let id = format!("SYN-{i:04}");
        let yaml = format!(
            "id: {id}\ncategory: character\nname: {{en: \"Synthetic {i}\"}}\ntext: {{en: \"[On Play] Draw 1 card.\"}}\ncolors: [{}]\ncost: {}\npower: {}\ncounter: 1000\nattributes: [slash]\ntypes: [Bench]\n",
            colors[i % 6],
            1 + i % 8,
            1000 * (2 + i % 8)
        );
        std::fs::write(dir.join(format!("{id}.yaml")), yaml)?;
        let lua = format!(
            "-- {id} Synthetic {i}\nreturn card {{\n  -- [On Play] Draw 1 card.\n  on_play {{ operate = function(ctx) OP.draw(ctx, ctx.player, 1) end }},\n}}\n"
        );
        std::fs::write(dir.join(format!("{id}.lua")), lua)?;
    }
    Ok(())
}

//! Tests: `xcover queens count`, `list` and `merge`, and the n-queens model behind them.

use dancelinks::queens::model::{CountConfig, Queens, Reduction, count};

#[test]
fn library_count_matches_knuths_dlx2_figures_without_symmetry_and_halves_with_it() {
    let model = Queens::new(13).unwrap();
    let plain = count(
        &model,
        &CountConfig {
            reduction: Reduction::None,
            ..CountConfig::default()
        },
        &|_, _, _| {},
    )
    .unwrap();
    assert_eq!(plain.solutions, 73712);
    assert_eq!(plain.work.nodes, 1_046_319);
    assert_eq!(plain.work.updates, Some(17_463_157));
    let mirrored = count(
        &model,
        &CountConfig {
            reduction: Reduction::Mirror,
            ..CountConfig::default()
        },
        &|_, _, _| {},
    )
    .unwrap();
    assert_eq!(mirrored.solutions, 73712);
    assert!(
        mirrored.work.nodes * 19 < plain.work.nodes * 10,
        "mirror cuts the tree about in half: {} vs {}",
        mirrored.work.nodes,
        plain.work.nodes
    );
    let full = count(&model, &CountConfig::default(), &|_, _, _| {}).unwrap();
    assert_eq!(full.solutions, 73712);
    assert!(
        full.work.nodes * 3 < plain.work.nodes,
        "all 8 symmetries cut the tree to under a third: {} vs {}",
        full.work.nodes,
        plain.work.nodes
    );
}

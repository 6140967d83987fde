//! The page, built into the binary: plain HTML, CSS and JavaScript written for Shishi, with
//! the board drawn as SVG by the script. Nothing is fetched from elsewhere at run time.

pub const INDEX_HTML: &str = include_str!("page/index.html");
pub const SCRIPT: &str = include_str!("page/page.js");
pub const STYLE: &str = include_str!("page/page.css");
pub const ICON: &str = include_str!("page/icon.svg");

use mlua::{Lua, UserData, UserDataMethods};
struct Grid { width: i64, cells: Vec<u8> }
impl UserData for Grid {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("priority", |_, g, (x, y): (i64, i64)| Ok(g.cells[(y * g.width + x) as usize]));
    }
}
fn main() {
    let n: i64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let lua = Lua::new();
    lua.globals().set("g", Grid { width: 80, cells: vec![0; 4000] }).unwrap();
    lua.load("function method(n) for i = 1, n do g:priority(1, 1) end end").exec().unwrap();
    let f: mlua::Function = lua.globals().get("method").unwrap();
    f.call::<()>(n).unwrap();
}

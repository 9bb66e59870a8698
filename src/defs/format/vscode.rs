//! VS Code's and Cursor's `${workspaceFolder}`: the folder a file's
//! servers run in, known on read because it is a path, never a secret.

use std::path::{Path, PathBuf};

use crate::defs::model::{Launch, ServerDef};
use crate::defs::sources::canonical;

/// The folder VS Code and Cursor mean by `${workspaceFolder}` for a file:
/// the folder holding its `.vscode` or `.cursor` directory, else the file's
/// own directory.
pub fn workspace_folder(path: &Path) -> PathBuf {
    let file = canonical(path);
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    match dir.file_name().and_then(|n| n.to_str()) {
        Some(".vscode") | Some(".cursor") => dir.parent().map(Path::to_path_buf).unwrap_or(dir),
        _ => dir,
    }
}

/// The reference VS Code and Cursor expand to the workspace folder.
const WORKSPACE_FOLDER: &str = "${workspaceFolder}";

/// Replace `${workspaceFolder}` in every launch value by the folder it
/// means for this file: a path, never a secret, so it is known on read.
pub(super) fn substitute_workspace_folder(def: &mut ServerDef, folder: impl FnOnce() -> String) {
    let mut folder = Some(folder);
    let mut value = None;
    let mut fix = |text: &mut String| {
        if text.contains(WORKSPACE_FOLDER) {
            let with = value.get_or_insert_with(|| folder.take().map(|f| f()).unwrap_or_default());
            *text = text.replace(WORKSPACE_FOLDER, with);
        }
    };
    let fix_path = |path: &mut Option<PathBuf>, fix: &mut dyn FnMut(&mut String)| {
        if let Some(dir) = path {
            let mut text = dir.to_string_lossy().into_owned();
            fix(&mut text);
            *dir = PathBuf::from(text);
        }
    };
    match &mut def.launch {
        Launch::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            fix(command);
            args.iter_mut().for_each(&mut fix);
            env.values_mut().for_each(&mut fix);
            fix_path(cwd, &mut fix);
        }
        Launch::Remote {
            url,
            headers,
            process,
            ..
        } => {
            fix(url);
            headers.values_mut().for_each(&mut fix);
            if let Some(process) = process {
                fix(&mut process.command);
                process.args.iter_mut().for_each(&mut fix);
                process.env.values_mut().for_each(&mut fix);
                fix_path(&mut process.cwd, &mut fix);
            }
        }
    }
    fix_path(&mut def.env_file, &mut fix);
    if let Some(crate::sandbox::Sandbox::Profile(profile)) = &mut def.sandbox {
        profile.read.iter_mut().for_each(&mut fix);
        profile.write.iter_mut().for_each(&mut fix);
    }
}

; Included by electron-builder's NSIS installer (electron-builder.yml nsis.include).
; electron-builder's NSIS target does not act on `protocols`: infradesk:// links are registered
; here, for the user or for the machine as the installer was run (SHELL_CONTEXT), and removed on
; uninstall. The handler starts the app with the link as its argument (src/main/shell/deep-link.ts).

!macro customInstall
  WriteRegStr SHELL_CONTEXT "Software\Classes\infradesk" "" "URL:Infradesk link"
  WriteRegStr SHELL_CONTEXT "Software\Classes\infradesk" "URL Protocol" ""
  WriteRegStr SHELL_CONTEXT "Software\Classes\infradesk\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHELL_CONTEXT "Software\Classes\infradesk\shell\open\command" "" '"$appExe" "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHELL_CONTEXT "Software\Classes\infradesk"
!macroend

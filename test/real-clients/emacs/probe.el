;;; probe.el --- drive the HERALD language server from Emacs eglot in --batch  -*- lexical-binding: t -*-

;; Opens a spec through eglot (Emacs 28 + eglot 1.9, which has no pull diagnostics, so the server
;; must push), waits for the diagnostics to reach Flymake, asks for a hover, and writes what the
;; editor saw as JSON.  Run by emacs.e2e.ts: emacs --batch -Q -l probe.el, with HERALD_PROBE
;; pointing at a JSON file: { server, node, root, spec, result, log, events, hover, timeoutMs }.

(require 'cl-lib)
(require 'json)
(require 'package)
;; -Q skips package activation; the Debian elpa-eglot lives in the system package directory.
(package-initialize)
(require 'eglot)
(require 'flymake)

(defvar herald-probe--config
  (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
    (json-read-file (getenv "HERALD_PROBE"))))
(defun herald-probe--get (key) (alist-get key herald-probe--config))

(defvar herald-probe--started (float-time))
(defvar herald-probe--log nil "Lines of the probe log, newest first.")
(defvar herald-probe--published nil "Raw publishDiagnostics params the server sent, newest first.")

(defun herald-probe--log (format-string &rest args)
  (push (format "[%6d ms] %s" (round (* 1000 (- (float-time) herald-probe--started)))
                (apply #'format format-string args))
        herald-probe--log))

(define-derived-mode reward-mode prog-mode "Reward" "Major mode for .reward specs (just enough for eglot).")

;; Record what the server pushed before eglot turns it into Flymake diagnostics.
(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
  (herald-probe--log "publishDiagnostics %s %s" uri (json-encode diagnostics))
  (push (list (cons 'uri uri) (cons 'diagnostics diagnostics)) herald-probe--published))

(defun herald-probe--wait (predicate timeout-ms)
  "Let timers and process output run until PREDICATE holds or TIMEOUT-MS pass; return PREDICATE."
  (let ((deadline (+ (float-time) (/ timeout-ms 1000.0))))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (funcall predicate)))

(defun herald-probe--position (pos)
  "POS as a 0-based line and column, the way LSP counts (the spec is ASCII)."
  (save-excursion
    (goto-char pos)
    (list (1- (line-number-at-pos)) (current-column))))

(defun herald-probe--run ()
  (let* ((timeout (herald-probe--get 'timeoutMs))
         (root (file-name-as-directory (herald-probe--get 'root)))
         (contact (list (herald-probe--get 'node) (herald-probe--get 'server) "--stdio"))
         (eglot-sync-connect t)
         (eglot-connect-timeout (/ timeout 1000))
         (result (list (cons 'emacs emacs-version)
                       (cons 'eglot (package-version-join (package-desc-version (cadr (assq (quote eglot) package-alist))))))))
    (setq eglot-server-programs (list (cons 'reward-mode contact)))
    (find-file (herald-probe--get 'spec))
    (reward-mode)
    ;; A temporary folder is no VC project; name its root, as `eglot' would prompt for it.
    (eglot '(reward-mode) (cons 'transient root) 'eglot-lsp-server contact "reward")
    (let ((server (eglot-current-server)))
      (unless server (error "eglot did not connect"))
      (herald-probe--log "connected: %s" (mapconcat #'identity contact " "))
      (let ((declared (plist-get (eglot-client-capabilities server) :textDocument)))
        (push (cons 'clientDeclaresPull (if (plist-member declared :diagnostic) t :json-false)) result)
        ;; eglot asks for markdown hovers only when markdown-mode is installed.
        (push (cons 'clientDeclaresMarkdownHover
                    (if (member "markdown" (append (plist-get (plist-get declared :hover) :contentFormat) nil)) t :json-false))
              result))
      (let ((arrived (and (herald-probe--wait (lambda () herald-probe--published) timeout) t)))
        (herald-probe--log "diagnostics arrived: %s" arrived)
        (push (cons 'diagnosticsArrived (if arrived t :json-false)) result))
      ;; Batch mode has no command loop, so Flymake's deferred start never fires: start it here.
      (flymake-start)
      (herald-probe--wait (lambda () (flymake-diagnostics)) 2000)
      (push (cons 'diagnostics
                  (vconcat
                   (mapcar (lambda (d)
                             (let ((lsp (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)))
                                   (beg (herald-probe--position (flymake-diagnostic-beg d)))
                                   (end (herald-probe--position (flymake-diagnostic-end d))))
                               (herald-probe--log "flymake %d:%d-%d:%d %s %s" (car beg) (cadr beg) (car end) (cadr end)
                                                  (flymake-diagnostic-type d) (flymake-diagnostic-text d))
                               (list (cons 'line (car beg)) (cons 'col (cadr beg))
                                     (cons 'end_line (car end)) (cons 'end_col (cadr end))
                                     (cons 'type (symbol-name (flymake-diagnostic-type d)))
                                     (cons 'text (flymake-diagnostic-text d))
                                     (cons 'code (plist-get lsp :code))
                                     (cons 'data (plist-get lsp :data)))))
                           (flymake-diagnostics))))
            result)
      (push (cons 'published (vconcat (reverse herald-probe--published))) result)
      ;; Hover where eldoc would ask for it, rendered the way eglot renders it.
      (let ((hover (herald-probe--get 'hover)))
        (goto-char (point-min))
        (forward-line (alist-get 'line hover))
        (forward-char (alist-get 'character hover)))
      (let* ((response (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)
                                        :timeout (/ timeout 1000)))
             (contents (plist-get response :contents))
             (text (and contents (eglot--hover-info contents))))
        (herald-probe--log "hover: %s" text)
        (push (cons 'hover text) result)
        (push (cons 'hoverKind (and (listp contents) (plist-get contents :kind))) result))
      (with-current-buffer (jsonrpc-events-buffer server)
        (write-region (point-min) (point-max) (herald-probe--get 'events) nil 'silent))
      ;; eglot sends shutdown and exit, then deletes the process without waiting for it to exit.
      (eglot-shutdown server nil (/ timeout 1000))
      (let ((stopped (herald-probe--wait (lambda () (not (jsonrpc-running-p server))) timeout)))
        (herald-probe--log "server stopped: %s" stopped)
        (push (cons 'serverStopped (if stopped t :json-false)) result)))
    result))

(let ((outcome (condition-case err
                   (cons t (herald-probe--run))
                 (error (herald-probe--log "probe failed: %S" err)
                        (cons nil (list (cons 'probeError (format "%S" err))))))))
  (with-temp-file (herald-probe--get 'result) (insert (json-encode (cdr outcome))))
  (with-temp-file (herald-probe--get 'log) (insert (mapconcat #'identity (reverse herald-probe--log) "\n") "\n"))
  (kill-emacs (if (car outcome) 0 1)))
;;; probe.el ends here

import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { errorMessage, showError, skipToken, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Avatar, Button, Flex, Form, Input, Modal, Select, Skeleton, Switch, Tabs, Typography, Upload } from 'antd';
import type { Rule } from 'antd/es/form';
import {
  type AdminUser,
  useCreateAdminUserMutation,
  useGetAdminUserQuery,
  useListUserQueueOptionsQuery,
  useUpdateAdminUserMutation,
  useUploadUserAvatarMutation,
} from './api';
import {
  emailProblem,
  type FieldProblem,
  initialValues,
  nameProblem,
  passwordProblem,
  TOGGLE_FIELDS,
  type UserFormValues,
  userBody,
} from './user-form';

export interface UserDialogProps {
  open: boolean;
  /** The user to edit; null adds one. */
  userId: number | null;
  onClose(): void;
  /** Opened from the avatar menu's Profile item: the title says so. */
  asProfile?: boolean;
}

/** Accepted avatar files (the server checks the content again). */
const AVATAR_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

/**
 * The user dialog (docs/product/administration.md#users): General and Permissions tabs with every field of #entities User.
 * Admins edit everything; a user editing themselves (the Profile item) sees the admin-only fields
 * (docs/product/roles-and-permissions.md#roles-in-the-inbox: profile, queues, working hours, permissions) read-only.
 */
export function UserDialog({ open, userId, onClose, asProfile = false }: UserDialogProps) {
  const { t } = useTranslation('admin');
  const title = asProfile ? 'users.dialog.profileTitle' : userId === null ? 'users.dialog.addTitle' : 'users.dialog.editTitle';
  return (
    <Modal open={open} onCancel={onClose} footer={null} destroyOnHidden title={t(title)} width={640}>
      {open ? <UserDialogBody key={userId ?? 'new'} userId={userId} onClose={onClose} /> : null}
    </Modal>
  );
}

function UserDialogBody({ userId, onClose }: { userId: number | null; onClose(): void }) {
  const { data: user, isLoading, error } = useGetAdminUserQuery(userId ?? skipToken);
  if (userId !== null && isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (userId !== null && (error || !user))
    return <Alert type="error" showIcon title={errorMessage(error ?? 'ERR_NO_USER_FOUND')} />;
  return <UserForm user={user ?? null} onClose={onClose} />;
}

function UserForm({ user, onClose }: { user: AdminUser | null; onClose(): void }) {
  const { t } = useTranslation('admin');
  const session = useSession();
  const asAdmin = session?.profile === 'admin' || session?.super === true;
  const [form] = Form.useForm<UserFormValues>();
  const { data: queues, isLoading: queuesLoading } = useListUserQueueOptionsQuery(asAdmin ? undefined : skipToken);
  const [createUser, creating] = useCreateAdminUserMutation();
  const [updateUser, updating] = useUpdateAdminUserMutation();
  const [uploadAvatar, uploading] = useUploadUserAvatarMutation();
  const isNew = user === null;

  const rule = (problem: (value: string) => FieldProblem): Rule => ({
    validator: async (_rule, value: string) => {
      const found = problem(value);
      if (found) throw new Error(t(`users.validation.${found}`));
    },
  });

  const submit = async (values: UserFormValues) => {
    const body = userBody(values, asAdmin);
    try {
      if (user) await updateUser({ id: user.id, ...body }).unwrap();
      else await createUser(body).unwrap();
      toast.success(t('users.toasts.saved'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  const upload = async (file: File) => {
    if (!user) return;
    try {
      await uploadAvatar({ id: user.id, file }).unwrap();
      toast.success(t('users.toasts.avatar'));
    } catch (failure) {
      showError(failure);
    }
  };

  const queueOptions = (queues ?? user?.queues ?? []).map((queue) => ({
    value: queue.id,
    label: (
      <Flex align="center" gap={6}>
        <span style={{ width: 10, height: 10, borderRadius: 5, background: queue.color, display: 'inline-block' }} />
        {queue.name}
      </Flex>
    ),
    title: queue.name,
  }));
  const adminOnlyHint = asAdmin ? null : <Typography.Text type="secondary">{t('users.dialog.adminOnly')}</Typography.Text>;

  const general = (
    <>
      <Flex align="center" gap={16} wrap style={{ marginBottom: 16 }}>
        <Avatar size={64} src={user?.profileImage ?? undefined} icon={<UserOutlined />} alt={user?.name} />
        {user ? (
          <Flex vertical gap={4}>
            <Upload
              accept={AVATAR_ACCEPT}
              showUploadList={false}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading.isLoading}>
                {t('users.dialog.avatarUpload')}
              </Button>
            </Upload>
            <Typography.Text type="secondary">{t('users.dialog.avatarHelp')}</Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('users.dialog.avatarAfterSave')}</Typography.Text>
        )}
      </Flex>
      <Flex wrap gap={12}>
        <Form.Item name="name" label={t('users.fields.name')} rules={[rule(nameProblem)]} style={{ flex: '1 1 240px' }}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label={t('users.fields.email')} rules={[rule(emailProblem)]} style={{ flex: '1 1 240px' }}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
      </Flex>
      <Flex wrap gap={12}>
        <Form.Item
          name="password"
          label={t('users.fields.password')}
          rules={[rule((value) => passwordProblem(value, isNew))]}
          style={{ flex: '1 1 240px' }}
        >
          <Input.Password autoComplete="new-password" placeholder={isNew ? undefined : t('users.dialog.passwordKeep')} />
        </Form.Item>
        <Form.Item name="profile" label={t('users.fields.profile')} style={{ flex: '1 1 160px' }}>
          <Select
            disabled={!asAdmin}
            options={(['admin', 'user'] as const).map((value) => ({ value, label: t(`users.profiles.${value}`) }))}
          />
        </Form.Item>
      </Flex>
      <Form.Item name="queueIds" label={t('users.fields.queues')}>
        <Select
          mode="multiple"
          disabled={!asAdmin}
          loading={queuesLoading}
          options={queueOptions}
          optionFilterProp="title"
          placeholder={t('users.dialog.none')}
        />
      </Form.Item>
      <Flex wrap gap={12}>
        <Form.Item name="startWork" label={t('users.fields.startWork')} style={{ flex: '1 1 140px' }}>
          <Input type="time" step={600} disabled={!asAdmin} />
        </Form.Item>
        <Form.Item name="endWork" label={t('users.fields.endWork')} style={{ flex: '1 1 140px' }}>
          <Input type="time" step={600} disabled={!asAdmin} />
        </Form.Item>
        <Form.Item name="defaultTheme" label={t('users.fields.defaultTheme')} style={{ flex: '1 1 140px' }}>
          <Select options={(['light', 'dark'] as const).map((value) => ({ value, label: t(`users.choices.${value}`) }))} />
        </Form.Item>
        <Form.Item name="defaultMenu" label={t('users.fields.defaultMenu')} style={{ flex: '1 1 140px' }}>
          <Select options={(['open', 'closed'] as const).map((value) => ({ value, label: t(`users.choices.${value}`) }))} />
        </Form.Item>
      </Flex>
      <Form.Item name="farewellMessage" label={t('users.fields.farewellMessage')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
    </>
  );

  const permissions = (
    <>
      {adminOnlyHint}
      <Form.Item name="allTicket" label={t('users.fields.allTicket')}>
        <Select
          disabled={!asAdmin}
          options={(['enable', 'disable'] as const).map((value) => ({ value, label: t(`users.choices.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="allowGroup" label={t('users.fields.allowGroup')} valuePropName="checked">
        <Switch disabled={!asAdmin} />
      </Form.Item>
      {TOGGLE_FIELDS.map((field) => (
        <Form.Item key={field} name={field} label={t(`users.fields.${field}`)} valuePropName="checked">
          <Switch disabled={!asAdmin} />
        </Form.Item>
      ))}
    </>
  );

  return (
    <Form<UserFormValues> form={form} layout="vertical" onFinish={submit} initialValues={initialValues(user)}>
      <Tabs
        items={[
          { key: 'general', label: t('users.dialog.tabs.general'), children: general, forceRender: true },
          { key: 'permissions', label: t('users.dialog.tabs.permissions'), children: permissions, forceRender: true },
        ]}
      />
      <Flex justify="end" gap={8} style={{ marginTop: 8 }}>
        <Button onClick={onClose}>{t('users.dialog.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
          {t(isNew ? 'users.dialog.add' : 'users.dialog.save')}
        </Button>
      </Flex>
    </Form>
  );
}
